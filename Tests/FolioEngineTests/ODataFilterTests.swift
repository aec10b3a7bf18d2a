import Testing

@testable import FolioEngine

/// docs/API.md, "More dialects", `odata`'s `$filter` subset: what it reads and the 400s it gives.
@Suite struct ODataFilterTests {
    @Test func readsComparisonsJoinedByAnd() throws {
        #expect(
            try ODataFilter.parse("price ge 10 and name eq 'O''Brien'  and  id ne -1.5e3")
                == [
                    .init(field: "price", comparison: .greaterOrEqual, value: "10"),
                    .init(field: "name", comparison: .equal, value: "O'Brien"),
                    .init(field: "id", comparison: .notEqual, value: "-1.5e3"),
                ])
        #expect(try ODataFilter.parse("a/b lt 'x y' and c le 0").map(\.comparison) == [.less, .lessOrEqual])
        #expect(try ODataFilter.parse("s gt ''").first?.value == "")
    }

    @Test(arguments: [
        ("price eq", "expected a number or a 'string' after 'price eq' at position 9, but the filter ends"),
        ("", "expected a property name at position 1"),
        ("price", "expected an operator (eq ne gt ge lt le) after 'price' at position 6"),
        ("price eq 5 and", "expected a property name at position 15"),
        ("price eq 5 or id eq 1", "expected 'and' or the end of the filter"),
        ("price eq 05", "expected a number or a 'string'"),
        ("name eq 'open", "expected a closing quote"),
        ("price like 5", "expected an operator"),
        ("(price eq 5)", "expected a property name at position 1"),
        ("startswith(name,'a')", "functions such as startswith() are not supported"),
        ("and eq 1", "expected a property name"),
        ("price eq true", "expected a number or a 'string'"),
    ])
    func malformedFiltersSayWhatIsMissing(_ filter: String, _ says: String) {
        do {
            _ = try ODataFilter.parse(filter)
            Issue.record("accepted: \(filter)")
        } catch {
            #expect(error.status == 400 && error.detail.contains(says), "\(filter): \(error.detail)")
        }
    }

    @Test func odataReadsItsQueryOptions() throws {
        let options = PagingOptions(defaultPageSize: 10, maxPageSize: 100, filterable: ["price"], dialect: .odata)
        let request = try ListRequest.interpret(
            QueryString.parse(
                "$top=5&$skip=15&$orderby=price%20desc,name&$select=id,%20name&$search=oak&$count=true"
                    + "&$filter=price%20gt%203"),
            options: options, rangeHeader: nil)
        #expect(request.offset == 15 && request.pageSize == 5 && request.sort == "-price,name")
        #expect(request.fields == ["id", "name"] && request.q == "oak" && request.withTotal)
        #expect(request.filters == [.init(field: "price", value: "3", comparison: .greater)])
        #expect(
            LinkBuilder(base: "/o", request: request, options: options, snapshot: "T").url(offset: 20).hasSuffix(
                "&%24top=5&%24skip=20&snapshot=T"))
    }
}
