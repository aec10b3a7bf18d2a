import Testing

@testable import FolioEngine

@Suite struct ListRequestTests {
    static let limit53 = "9007199254740992"
    static let above53 = "9007199254740993"

    func interpret(_ query: String, _ options: PagingOptions = PagingOptions(), range: String? = nil) throws
        -> ListRequest
    {
        try ListRequest.interpret(QueryString.parse(Substring(query)), options: options, rangeHeader: range)
    }

    struct Rejected: Sendable, CustomStringConvertible {
        let query: String
        let code: String
        var range: String? = nil
        var options = PagingOptions()
        /// A word the detail must contain (the parameter, or the maximum).
        var mentions: String
        var description: String { "\(query) range=\(range ?? "-") -> \(code)" }
    }

    static let rejected: [Rejected] = [
        Rejected(query: "pageSize=abc", code: "invalid-parameter", mentions: "pageSize"),
        Rejected(query: "pageSize=", code: "invalid-parameter", mentions: "pageSize"),
        Rejected(query: "pageSize", code: "invalid-parameter", mentions: "pageSize"),
        Rejected(query: "pageSize=-1", code: "invalid-parameter", mentions: "pageSize"),
        Rejected(query: "pageSize=%2B5", code: "invalid-parameter", mentions: "pageSize"),
        Rejected(query: "pageSize=+5", code: "invalid-parameter", mentions: "pageSize"),
        Rejected(query: "pageSize=5%20", code: "invalid-parameter", mentions: "pageSize"),
        Rejected(query: "pageSize=1.0", code: "invalid-parameter", mentions: "pageSize"),
        Rejected(query: "pageSize=1e3", code: "invalid-parameter", mentions: "pageSize"),
        Rejected(query: "pageSize=٣", code: "invalid-parameter", mentions: "pageSize"),
        Rejected(query: "pageSize=0", code: "invalid-parameter", mentions: "pageSize"),
        Rejected(query: "pageSize=000", code: "invalid-parameter", mentions: "pageSize"),
        Rejected(query: "offset=x", code: "invalid-parameter", mentions: "offset"),
        Rejected(query: "offset=-0", code: "invalid-parameter", mentions: "offset"),
        Rejected(query: "offset=\(above53)", code: "invalid-parameter", mentions: "offset"),
        Rejected(query: "offset=99999999999999999999999999", code: "invalid-parameter", mentions: "offset"),
        Rejected(query: "pageSize=\(above53)", code: "invalid-parameter", mentions: "pageSize"),
        Rejected(query: "page=\(above53)", code: "invalid-parameter", mentions: "page"),
        Rejected(query: "page=0", code: "invalid-parameter", options: PagingOptions(pageBase: 1), mentions: "page"),
        Rejected(query: "page=\(limit53)&pageSize=2", code: "invalid-parameter", mentions: "page"),
        Rejected(query: "page=4503599627370497&pageSize=2", code: "invalid-parameter", mentions: "page"),
        Rejected(query: "offset=0&page=0", code: "conflicting-parameters", mentions: "offset"),
        Rejected(query: "page=1&offset=5", code: "conflicting-parameters", mentions: "page"),
        Rejected(query: "offset=5", code: "conflicting-parameters", range: "items=0-4", mentions: "Range"),
        Rejected(query: "page=1", code: "conflicting-parameters", range: "items=0-4", mentions: "Range"),
        Rejected(query: "pageSize=1&pageSize=1", code: "duplicate-parameter", mentions: "pageSize"),
        Rejected(query: "page%53ize=1&pageSize=1", code: "duplicate-parameter", mentions: "pageSize"),
        Rejected(query: "offset=1&offset=2", code: "duplicate-parameter", mentions: "offset"),
        Rejected(query: "sort=name&sort=name", code: "duplicate-parameter", mentions: "sort"),
        Rejected(query: "groupBy=a&groupBy=b", code: "duplicate-parameter", mentions: "groupBy"),
        Rejected(query: "beginsWith=A&beginsWith=B", code: "duplicate-parameter", mentions: "beginsWith"),
        Rejected(query: "snapshot=t&snapshot=t", code: "duplicate-parameter", mentions: "snapshot"),
        Rejected(query: "metadataOnly&metadataOnly=1", code: "duplicate-parameter", mentions: "metadataOnly"),
        Rejected(
            query: "price%5Bgte%5D=1&price[gte]=2", code: "duplicate-parameter",
            options: PagingOptions(filterable: ["price"]), mentions: "price[gte]"),
        Rejected(
            query: "price[between]=1", code: "invalid-parameter", options: PagingOptions(filterable: ["price"]),
            mentions: "between"),
        Rejected(
            query: "price[eq]=1", code: "invalid-parameter", options: PagingOptions(filterable: ["price"]),
            mentions: "eq"),
        Rejected(
            query: "limit=1&limit=2", code: "duplicate-parameter",
            options: PagingOptions(names: ParameterNames(pageSize: "limit")), mentions: "limit"),
        Rejected(
            query: "limit=0", code: "invalid-parameter",
            options: PagingOptions(names: ParameterNames(pageSize: "limit")), mentions: "limit"),
        Rejected(query: "beginsWith=", code: "invalid-parameter", mentions: "beginsWith"),
        Rejected(query: "beginsWith", code: "invalid-parameter", mentions: "beginsWith"),
        Rejected(
            query: "pageSize=501", code: "page-size-too-large",
            options: PagingOptions(overMax: .reject), mentions: "500"),
        Rejected(
            query: "", code: "page-size-too-large", range: "items=0-500",
            options: PagingOptions(overMax: .reject), mentions: "500"),
    ]

    @Test(arguments: rejected)
    func rejects(_ example: Rejected) {
        #expect {
            _ = try interpret(example.query, example.options, range: example.range)
        } throws: { error in
            guard let folio = error as? FolioError else { return false }
            return folio.status == 400 && folio.code == example.code && folio.detail.contains(example.mentions)
        }
    }

    @Test func defaultsWithoutPagingParameters() throws {
        let request = try interpret("q=1", PagingOptions(defaultPageSize: 40))
        #expect(request.offset == 0)
        #expect(request.pageSize == 40)
        #expect(request.style == .offset)
        #expect(!request.metadataOnly)
        #expect(request.range == nil)
        #expect(request.kept.map(\.raw) == ["q=1"])
    }

    @Test func numbersUpTo2Pow53AreAccepted() throws {
        let request = try interpret("offset=\(Self.limit53)&pageSize=007")
        #expect(request.offset == 9_007_199_254_740_992)
        #expect(request.pageSize == 7)
        let big = try interpret("pageSize=\(Self.limit53)", PagingOptions(maxPageSize: Int.max))
        #expect(big.pageSize == 9_007_199_254_740_992)
        // The page whose offset lands exactly on 2^53 is still allowed.
        let page = try interpret("page=4503599627370496&pageSize=2", PagingOptions(maxPageSize: 10))
        #expect(page.offset == 9_007_199_254_740_992)
    }

    @Test(arguments: [(0, 2, 50), (1, 3, 50), (1, 1, 0), (0, 0, 0)])
    func pageBecomesOffset(_ example: (base: Int, page: Int, offset: Int)) throws {
        let request = try interpret("pageSize=25&page=\(example.page)", PagingOptions(pageBase: example.base))
        #expect(request.offset == example.offset)
        #expect(request.style == .page)
    }

    @Test func pageUsesTheClampedPageSize() throws {
        let request = try interpret("page=2&pageSize=900", PagingOptions(maxPageSize: 100))
        #expect(request.pageSize == 100)
        #expect(request.offset == 200)
    }

    @Test func overMaxClampsByDefault() throws {
        #expect(try interpret("pageSize=501").pageSize == 500)
        #expect(try interpret("pageSize=500", PagingOptions(overMax: .reject)).pageSize == 500)
    }

    @Test(arguments: ["metadataOnly", "metadataOnly=", "metadataOnly=false", "metadataOnly=0", "metadata%4Fnly"])
    func metadataOnlyIsAFlag(_ query: String) throws {
        let request = try interpret(query)
        #expect(request.metadataOnly)
        #expect(request.kept.isEmpty)
    }

    @Test func renamedParametersAndUnusedDefaultNames() throws {
        let options = PagingOptions(names: ParameterNames(pageSize: "limit", offset: "skip", page: "p"))
        let request = try interpret("pageSize=3&limit=10&offset=zz&skip=20&page=1&page=2", options)
        #expect(request.pageSize == 10)
        #expect(request.offset == 20)
        #expect(request.kept.map(\.raw) == ["pageSize=3", "offset=zz", "page=1", "page=2"])
        let byPage = try interpret("limit=10&p=3", options)
        #expect(byPage.offset == 30)
        #expect(byPage.style == .page)
    }

    @Test func keepsOtherParametersInOrderAsSent() throws {
        let options = PagingOptions(groupable: ["color"])
        let request = try interpret(
            "z=1&sort=-name&pageSize=5&a=%41+b&snapshot=tok&color=r%C3%A9d&z=1&metadataOnly&offset=5&groupBy=color&beginsWith=%C3%A9",
            options)
        #expect(
            request.kept.map(\.raw) == [
                "z=1", "sort=-name", "a=%41+b", "color=r%C3%A9d", "z=1", "groupBy=color", "beginsWith=%C3%A9",
            ])
        #expect(request.sort == "-name")
        #expect(request.groupBy == "color")
        #expect(request.beginsWith == "é")
        #expect(request.snapshot == "tok")
        #expect(request.filters == [ListRequest.Filter(field: "color", value: "réd")])
        #expect(request.metadataOnly)
        #expect(request.offset == 5)
    }

    @Test func repeatedValuesAndComparisonsAreFilters() throws {
        let request = try interpret(
            "color=red&col%6Fr=blue&price%5Bgte%5D=10&price[lt]=20&size[gt]=1",
            PagingOptions(groupable: ["color"], filterable: ["price"]))
        #expect(
            request.filters == [
                ListRequest.Filter(field: "color", value: "red"), ListRequest.Filter(field: "color", value: "blue"),
                ListRequest.Filter(field: "price", value: "10", comparison: .greaterOrEqual),
                ListRequest.Filter(field: "price", value: "20", comparison: .less),
            ])
        #expect(request.kept.count == 5, "every filter is kept in links, the unknown one too")
    }

    @Test func nonGroupableFieldsAreUnknownParameters() throws {
        let request = try interpret("color=a&color=b", PagingOptions(groupable: ["size"]))
        #expect(request.filters.isEmpty)
        #expect(request.kept.count == 2)
    }

    @Test func rangeHeaderSetsTheSlice() throws {
        let request = try interpret("pageSize=10&q=1", range: "items=50-74")
        #expect(request.range == ItemRange(first: 50, last: 74))
        #expect(request.offset == 50)
        #expect(request.pageSize == 25)
        #expect(request.style == .offset)
        #expect(request.kept.map(\.raw) == ["q=1"])
    }

    @Test func rangeWiderThanMaxIsClamped() throws {
        let request = try interpret("", PagingOptions(maxPageSize: 10), range: "items=5-100")
        #expect(request.range == ItemRange(first: 5, last: 14))
        #expect(request.pageSize == 10)
    }

    @Test(arguments: [
        "items=5-1", "bytes=0-4", "items=0-4,6-9", "items=-5", "items=5-", "items=a-b", "items 0-4",
        "items=0-\(limit53)1",
    ])
    func ignoredRangeHeaders(_ header: String) throws {
        // Ignored even together with offset, which a valid Range would conflict with.
        let request = try interpret("offset=3", range: header)
        #expect(request.range == nil)
        #expect(request.offset == 3)
    }

    @Test func rangeIsIgnoredWithMetadataOnly() throws {
        let request = try interpret("metadataOnly&offset=3", range: "items=0-4")
        #expect(request.range == nil)
        #expect(request.offset == 3)
        #expect(request.pageSize == 25)
    }

    @Test func normalizedQueryTellsSlicesAndStylesApart() throws {
        let a = try interpret("q=1&pageSize=25&offset=50").normalizedQuery
        let b = try interpret("q=1&offset=50&pageSize=25").normalizedQuery
        let c = try interpret("q=1&pageSize=25&page=2").normalizedQuery
        let d = try interpret("q=1&pageSize=25&offset=75").normalizedQuery
        let e = try interpret("q=2&pageSize=25&offset=50").normalizedQuery
        #expect(a == b)
        #expect(Set([a, c, d, e]).count == 4)
    }
}
