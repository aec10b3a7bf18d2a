import Testing

@testable import FolioEngine

/// docs/API.md, "Dialects": each dialect reads the requests its real clients send (copied from the clients'
/// and servers' documentation) into Folio's own request, and names pages in links its own way.
@Suite struct DialectRequestTests {
    static func options(_ dialect: Dialect, filterable: [String] = []) -> PagingOptions {
        PagingOptions(defaultPageSize: 25, maxPageSize: 500, filterable: filterable, dialect: dialect)
    }

    static func interpret(_ query: String, _ options: PagingOptions, range: String? = nil) throws -> ListRequest {
        try ListRequest.interpret(QueryString.parse(Substring(query)), options: options, rangeHeader: range)
    }

    /// One request as a client sends it, what Folio reads, and the link to the next page.
    struct Read: Sendable, CustomTestStringConvertible {
        let dialect: Dialect
        let query: String
        var filterable: [String] = []
        let offset: Int
        let pageSize: Int
        var sort: String? = nil
        var filters: [ListRequest.Filter] = []
        var q: String? = nil
        /// The link to the page after this one (snapshot `T`, base `/o`).
        let next: String
        var testDescription: String { "\(dialect.name): \(query)" }
    }

    static let reads: [Read] = [
        // DRF docs, PageNumberPagination and LimitOffsetPagination.
        Read(dialect: .drf, query: "page=4", offset: 75, pageSize: 25, next: "/o?page_size=25&page=5&snapshot=T"),
        Read(
            dialect: .drf, query: "limit=100&offset=400", offset: 400, pageSize: 100,
            next: "/o?limit=100&offset=500&snapshot=T"),
        Read(dialect: .drf, query: "", offset: 0, pageSize: 25, next: "/o?page_size=25&page=2&snapshot=T"),
        Read(
            dialect: .drf, query: "page_size=10&page=2&sort=-price", offset: 10, pageSize: 10, sort: "-price",
            next: "/o?sort=-price&page_size=10&page=3&snapshot=T"),
        // Spring Data REST, "Paging and Sorting".
        Read(dialect: .hal, query: "page=1&size=5", offset: 5, pageSize: 5, next: "/o?size=5&page=2&snapshot=T"),
        Read(
            dialect: .hal, query: "sort=name,desc", offset: 0, pageSize: 25, sort: "-name",
            next: "/o?sort=name,desc&size=25&page=1&snapshot=T"),
        Read(
            dialect: .hal, query: "sort=name&sort=price,DESC&size=3", offset: 0, pageSize: 3, sort: "name,-price",
            next: "/o?sort=name&sort=price,DESC&size=3&page=1&snapshot=T"),
        Read(
            dialect: .hal, query: "sort=a,b,asc", offset: 0, pageSize: 25, sort: "a,b",
            next: "/o?sort=a,b,asc&size=25&page=1&snapshot=T"),
        // json-server 0.17 README.
        Read(
            dialect: .jsonServer, query: "_page=7", offset: 150, pageSize: 25, next: "/o?_limit=25&_page=8&snapshot=T"),
        Read(
            dialect: .jsonServer, query: "_page=7&_limit=20", offset: 120, pageSize: 20,
            next: "/o?_limit=20&_page=8&snapshot=T"),
        Read(
            dialect: .jsonServer, query: "_sort=user,views&_order=desc,asc", offset: 0, pageSize: 25,
            sort: "-user,views", next: "/o?_sort=user,views&_order=desc,asc&_limit=25&_page=2&snapshot=T"),
        Read(
            dialect: .jsonServer, query: "_start=20&_end=30", offset: 20, pageSize: 10,
            next: "/o?_start=30&_end=40&snapshot=T"),
        Read(
            dialect: .jsonServer, query: "_start=20&_limit=10", offset: 20, pageSize: 10,
            next: "/o?_limit=10&_start=30&snapshot=T"),
        Read(
            dialect: .jsonServer, query: "views_gte=10&views_lte=20", filterable: ["views"], offset: 0, pageSize: 25,
            filters: [
                .init(field: "views", value: "10", comparison: .greaterOrEqual),
                .init(field: "views", value: "20", comparison: .lessOrEqual),
            ],
            next: "/o?views_gte=10&views_lte=20&_limit=25&_page=2&snapshot=T"),
        Read(
            dialect: .jsonServer, query: "id_ne=1&q=internet", filterable: ["id"], offset: 0, pageSize: 25,
            filters: [.init(field: "id", value: "1", comparison: .notEqual)], q: "internet",
            next: "/o?id_ne=1&q=internet&_limit=25&_page=2&snapshot=T"),
        // ra-data-json-server's getList, as query-string's stringify writes it (keys sorted).
        Read(
            dialect: .jsonServer, query: "_end=24&_order=ASC&_sort=title&_start=0&title=bar", filterable: ["title"],
            offset: 0, pageSize: 24, sort: "title", filters: [.init(field: "title", value: "bar")],
            next: "/o?_order=ASC&_sort=title&title=bar&_start=24&_end=48&snapshot=T"),
        // ra-data-simple-rest's README and getList/getMany as stringify encodes them.
        Read(
            dialect: .simpleRest, query: #"sort=["title","ASC"]&range=[0, 24]&filter={"title":"bar"}"#,
            filterable: ["title"], offset: 0, pageSize: 25, sort: "title",
            filters: [.init(field: "title", value: "bar")],
            next: #"/o?sort=[%22title%22,%22ASC%22]&filter=%7B%22title%22:%22bar%22%7D&range=%5B25%2C49%5D&snapshot=T"#),
        Read(
            dialect: .simpleRest,
            query: "filter=%7B%7D&range=%5B10%2C19%5D&sort=%5B%22id%22%2C%22DESC%22%5D", offset: 10, pageSize: 10,
            sort: "-id", next: "/o?filter=%7B%7D&sort=%5B%22id%22%2C%22DESC%22%5D&range=%5B20%2C29%5D&snapshot=T"),
        Read(
            dialect: .simpleRest, query: #"filter={"id":[123,456,789],"q":"oak"}"#, filterable: ["id"], offset: 0,
            pageSize: 25,
            filters: [
                .init(field: "id", value: "123"), .init(field: "id", value: "456"), .init(field: "id", value: "789"),
            ],
            q: "oak", next: "/o?filter=%7B%22id%22:[123,456,789],%22q%22:%22oak%22%7D&range=%5B25%2C49%5D&snapshot=T"),
        Read(
            dialect: .simpleRest, query: #"filter={"author_id":345,"other":true}"#, filterable: ["author_id"],
            offset: 0, pageSize: 25, filters: [.init(field: "author_id", value: "345")],
            next: "/o?filter=%7B%22author_id%22:345,%22other%22:true%7D&range=%5B25%2C49%5D&snapshot=T"),
    ]

    @Test(arguments: reads) func readsTheClientsRequest(_ read: Read) throws {
        let options = Self.options(read.dialect, filterable: read.filterable)
        let request = try Self.interpret(read.query, options)
        #expect(request.offset == read.offset)
        #expect(request.pageSize == read.pageSize)
        #expect(request.sort == read.sort)
        #expect(request.filters == read.filters)
        #expect(request.q == read.q)
        let links = LinkBuilder(base: "/o", request: request, options: options, snapshot: "T")
        #expect(links.url(offset: request.offset + request.pageSize) == read.next)
    }

    /// Malformed dialect parameters and clashes: each a 400 naming what is wrong.
    static let rejected: [(Dialect, String, String)] = [
        (.simpleRest, "range=[5]", "range"),
        (.simpleRest, "range=[5,2]", "range"),
        (.simpleRest, "range=[-1,3]", "range"),
        (.simpleRest, "range=[0,1.5]", "range"),
        (.simpleRest, #"sort=["a"]"#, "sort"),
        (.simpleRest, #"sort=["a","UP"]"#, "sort"),
        // The direction is the second element only: a field spelled `-a` would sort descending.
        (.simpleRest, #"sort=["-a","ASC"]"#, "sort"),
        (.simpleRest, #"sort=["","ASC"]"#, "sort"),
        (.simpleRest, "filter={", "filter"),
        (.simpleRest, "filter=[1]", "filter"),
        (.simpleRest, #"filter={"id":null}"#, "id"),
        (.simpleRest, #"filter={"id":[]}"#, "id"),
        (.simpleRest, #"filter={"q":1}"#, "q"),
        (.simpleRest, #"filter={"q":"a"}&q=b"#, "q"),
        (.simpleRest, "range=[0,1]&range=[2,3]", "range"),
        (.jsonServer, "_order=up", "_order"),
        (.jsonServer, "_sort=a&_order=asc,desc", "_order"),
        (.jsonServer, "_start=10&_end=5", "_end"),
        (.jsonServer, "_page=0", "_page"),
        (.jsonServer, "_page=1&_start=0", "_page and _start"),
        // `_start` goes with `_end` or with `_limit`: the clash is the other two.
        (.jsonServer, "_start=5&_end=10&_limit=3", "_end and _limit cannot"),
        (.drf, "page_size=5&offset=5&page=2", "page_size and offset cannot"),
        (.jsonServer, "_limit=0", "_limit"),
        (.drf, "page=0", "page"),
        (.drf, "page=2&offset=5", "page and offset"),
        (.drf, "page_size=0", "page_size"),
        (.drf, "page=1&page=2", "page"),
        (.hal, "sort=,desc", "sort"),
        (.hal, "page=x", "page"),
        (.hal, "size=5&size=6", "size"),
    ]

    @Test func malformedDialectParametersAre400() {
        for (dialect, query, mentions) in Self.rejected {
            do {
                _ = try Self.interpret(query, Self.options(dialect, filterable: ["id"]))
                Issue.record("\(dialect.name): \(query) was accepted")
            } catch let error as FolioError {
                #expect(error.status == 400, "\(dialect.name): \(query)")
                #expect(error.detail.contains(mentions), "\(dialect.name): \(query): \(error.detail)")
            } catch {
                Issue.record("\(dialect.name): \(query): \(error)")
            }
        }
    }

    @Test func folioParametersStayFolios() throws {
        // snapshot, metadataOnly, fields, FIELD[op] and the Range header in another dialect.
        let options = Self.options(.jsonServer, filterable: ["price"])
        let request = try Self.interpret(
            "_limit=5&snapshot=abc&metadataOnly&fields=id&price[gt]=2&pageSize=9", options)
        #expect(request.snapshot == "abc" && request.metadataOnly && request.fields == ["id"])
        #expect(request.filters == [.init(field: "price", value: "2", comparison: .greater)])
        #expect(request.pageSize == 5, "Folio's pageSize is an ordinary parameter in json-server's dialect")
        #expect(request.kept.map(\.key) == ["fields", "price[gt]", "pageSize"])
        let ranged = try Self.interpret("", Self.options(.simpleRest), range: "items=10-19")
        #expect(ranged.range == ItemRange(first: 10, last: 19) && ranged.offset == 10)
        // ra-data-simple-rest also sends `Range: posts=0-24`: another unit, ignored (docs/API.md, "Range requests").
        let other = try Self.interpret("range=%5B0%2C24%5D", Self.options(.simpleRest), range: "posts=0-24")
        #expect(other.range == nil && other.pageSize == 25)
        #expect(throws: FolioError.self) {
            try Self.interpret("range=%5B0%2C24%5D", Self.options(.simpleRest), range: "items=0-9")
        }
        // …unless it repeats the parameter's window (a react-admin resource named `items`).
        let same = try Self.interpret("range=%5B0%2C24%5D", Self.options(.simpleRest), range: "items=0-24")
        #expect(same.range == nil && same.offset == 0 && same.pageSize == 25)
    }

    /// A `Range` that starts off a page boundary gets links that step from its first item
    /// (docs/API.md, "The page"), spelled with the dialect's offset parameters when its page links could
    /// only name aligned offsets; an aligned one keeps the page links.
    @Test(arguments: [
        (Dialect.drf, "items=1-2", "/o?limit=2&offset=3&snapshot=T"),
        (.drf, "items=2-3", "/o?page_size=2&page=3&snapshot=T"),
        (.jsonServer, "items=1-2", "/o?_limit=2&_start=3&snapshot=T"),
        (.jsonServer, "items=4-5", "/o?_limit=2&_page=4&snapshot=T"),
    ])
    func anUnalignedRangeGetsLinksThatStepFromIt(_ dialect: Dialect, _ range: String, _ next: String) throws {
        let options = Self.options(dialect)
        let request = try Self.interpret("", options, range: range)
        let links = LinkBuilder(base: "/o", request: request, options: options, snapshot: "T")
        #expect(links.url(offset: request.offset + request.pageSize) == next)
    }

    @Test func pageSizesAreClampedLikeFolios() throws {
        let options = PagingOptions(defaultPageSize: 25, maxPageSize: 50, dialect: .simpleRest)
        #expect(try Self.interpret("range=[0,99]", options).pageSize == 50)
        let rejecting = PagingOptions(defaultPageSize: 25, maxPageSize: 50, overMax: .reject, dialect: .jsonServer)
        #expect(throws: FolioError.self) { try Self.interpret("_start=0&_end=51", rejecting) }
        #expect(try Self.interpret("_start=0&_end=50", rejecting).pageSize == 50)
    }

    @Test func renamesApplyOnTopOfTheDialectsNames() throws {
        let names = ParameterNames(pageSize: "per_page", offset: "offset", page: "p")
        let options = PagingOptions(names: names, dialect: .drf)
        let request = try Self.interpret("p=3&per_page=4", options)
        #expect(request.offset == 8 && request.pageSize == 4)
        #expect(
            LinkBuilder(base: "/o", request: request, options: options, snapshot: "T").url(offset: 12)
                == "/o?per_page=4&p=4&snapshot=T")
        #expect(Dialect.drf.parameterNames(names) == ["per_page", "p", "limit", "offset", "sort"])
        #expect(
            Dialect.jsonServer.parameterNames(ParameterNames())
                == ["_limit", "_page", "_start", "_end", "_sort", "_order"])
        #expect(Dialect.simpleRest.parameterNames(ParameterNames()) == ["range", "sort", "filter"])
        #expect(Dialect.hal.parameterNames(ParameterNames()) == ["size", "page", "sort"])
    }

    @Test func queryJSONReadsOnlyWholeValues() {
        #expect(
            QueryJSON.parse(#" [ "a\u00e9\"" , -1.5e3 , true , null , {} ] "#)
                == .array([.string("aé\""), .number("-1.5e3"), .bool(true), .null, .object([])]))
        #expect(QueryJSON.parse(#""\ud83d\ude00""#) == .string("😀"))
        for bad in [
            "", "[1,]", "[1 2]", "{\"a\"}", "01", "1.", "tru", "\"\u{1}\"", "[1]x", #""\ud83d""#,
            String(repeating: "[", count: 40) + String(repeating: "]", count: 40),
        ] {
            #expect(QueryJSON.parse(bad) == nil, "\(bad)")
        }
    }
}
