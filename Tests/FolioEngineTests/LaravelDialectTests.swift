import Testing

@testable import FolioEngine

/// docs/API.md, "Dialects", `laravel`: Laravel 10's `LengthAwarePaginator::toArray()` and `linkCollection()`.
@Suite struct LaravelDialectTests {
    static func pages(_ entries: [LaravelWindow.Entry]) -> String {
        entries.map { entry in
            switch entry {
            case .page(let number): String(number)
            case .gap: "..."
            }
        }.joined(separator: " ")
    }

    /// `UrlWindow::make()` with `onEachSide` 3, worked out from Laravel's source for each of its branches.
    @Test(arguments: [
        (1, 1, "1"),
        (1, 13, "1 2 3 4 5 6 7 8 9 10 11 12 13"),
        (13, 13, "1 2 3 4 5 6 7 8 9 10 11 12 13"),
        (1, 14, "1 2 3 4 5 6 7 8 9 10 ... 13 14"),
        (14, 14, "1 2 ... 5 6 7 8 9 10 11 12 13 14"),
        (1, 20, "1 2 3 4 5 6 7 8 9 10 ... 19 20"),
        (7, 20, "1 2 3 4 5 6 7 8 9 10 ... 19 20"),
        (8, 20, "1 2 ... 5 6 7 8 9 10 11 ... 19 20"),
        (13, 20, "1 2 ... 10 11 12 13 14 15 16 ... 19 20"),
        (14, 20, "1 2 ... 11 12 13 14 15 16 17 18 19 20"),
        (25, 20, "1 2 ... 11 12 13 14 15 16 17 18 19 20"),
    ])
    func windowIsLaravels(_ current: Int, _ last: Int, _ expected: String) {
        #expect(Self.pages(LaravelWindow.entries(current: current, last: last)) == expected)
    }

    @Test func pageBodyIsToArrays() {
        let url = { (page: Int) in "\"/o?per_page=2&page=\(page)&snapshot=T\"" }
        let expected =
            #"{"current_page":2,"data":[[ ],true],"first_page_url":\#(url(1)),"from":3,"last_page":3,"#
            + #""last_page_url":\#(url(3)),"links":[{"url":\#(url(1)),"label":"&laquo; Previous","active":false},"#
            + #"{"url":\#(url(1)),"label":"1","active":false},{"url":\#(url(2)),"label":"2","active":true},"#
            + #"{"url":\#(url(3)),"label":"3","active":false},{"url":\#(url(3)),"label":"Next &raquo;","active":false}],"#
            + #""next_page_url":\#(url(3)),"path":"/o","per_page":2,"prev_page_url":\#(url(1)),"to":4,"total":5}"#
        #expect(DialectWriterTests.page(.laravel, offset: 2) == expected)
        #expect(
            DialectWriterTests.page(.laravel, offset: 2, metadataOnly: true)
                == expected.replacingOccurrences(of: #","data":[[ ],true]"#, with: ""))
    }

    @Test func emptyListIsOnePageWithoutFromAndTo() {
        let first = "\"/o?per_page=2&page=1&snapshot=T\""
        #expect(
            DialectWriterTests.page(.laravel, offset: 0, total: 0)
                == #"{"current_page":1,"data":[],"first_page_url":\#(first),"from":null,"last_page":1,"#
                + #""last_page_url":\#(first),"links":[{"url":null,"label":"&laquo; Previous","active":false},"#
                + #"{"url":\#(first),"label":"1","active":true},{"url":null,"label":"Next &raquo;","active":false}],"#
                + #""next_page_url":null,"path":"/o","per_page":2,"prev_page_url":null,"to":null,"total":0}"#)
    }

    /// Past the end, Laravel's previous page is the one before the page asked for, and `links` marks no page.
    @Test func pastTheEndPointsBackOnePage() {
        let body = DialectWriterTests.page(.laravel, offset: 8)
        #expect(body.hasPrefix(#"{"current_page":5,"data":[],"#))
        #expect(body.contains(#""prev_page_url":"/o?per_page=2&page=4&snapshot=T","to":null"#))
        #expect(!body.contains(#""active":true"#))
    }

    @Test(arguments: [
        ("page=3", 20, 10, "/o?per_page=10&page=4&snapshot=T"),
        ("per_page=15&page=2&sort=-price", 15, 15, "/o?sort=-price&per_page=15&page=3&snapshot=T"),
        ("", 0, 10, "/o?per_page=10&page=2&snapshot=T"),
    ])
    func readsLaravelsParameters(_ query: String, _ offset: Int, _ pageSize: Int, _ next: String) throws {
        let options = PagingOptions(defaultPageSize: 10, maxPageSize: 100, dialect: .laravel)
        let request = try ListRequest.interpret(QueryString.parse(Substring(query)), options: options, rangeHeader: nil)
        #expect(request.offset == offset && request.pageSize == pageSize)
        let links = LinkBuilder(base: "/o", request: request, options: options, snapshot: "T")
        #expect(links.url(offset: offset + pageSize) == next)
    }

    @Test(arguments: ["page=0", "per_page=x", "per_page=0", "page=1&page=2", "page=-1"])
    func malformedParametersAre400(_ query: String) {
        let options = PagingOptions(dialect: .laravel)
        #expect(throws: FolioError.self) {
            try ListRequest.interpret(QueryString.parse(Substring(query)), options: options, rangeHeader: nil)
        }
        #expect(Dialect.laravel.parameterNames(ParameterNames()) == ["per_page", "page", "sort"])
    }
}
