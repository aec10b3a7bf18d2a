import Testing

@testable import FolioEngine

/// docs/API.md, "More dialects": `jsonapi`'s and `stripe`'s requests read into Folio's, and their bodies around
/// the items' bytes.
@Suite struct JSONAPIAndStripeDialectTests {
    static func interpret(_ query: String, _ dialect: Dialect, filterable: [String] = ["price", "id"]) throws
        -> ListRequest
    {
        let options = PagingOptions(
            defaultPageSize: 10, maxPageSize: 100, filterable: filterable, dialect: dialect, resourceType: "things")
        return try ListRequest.interpret(QueryString.parse(Substring(query)), options: options, rangeHeader: nil)
    }

    @Test func jsonAPIReadsPagingFiltersAndFields() throws {
        let request = try Self.interpret(
            "page[number]=3&page[size]=5&sort=-price,id&filter[price][gte]=2&filter[id]=7&filter[tag]=x"
                + "&fields[things]=name&fields[others]=a",
            .jsonAPI)
        #expect(request.offset == 10 && request.pageSize == 5 && request.sort == "-price,id")
        #expect(
            request.filters == [
                .init(field: "price", value: "2", comparison: .greaterOrEqual), .init(field: "id", value: "7"),
            ])
        #expect(request.fields == ["name"])
        #expect(request.kept.count == 6, "the dialect's parameters stay in links as sent")
        let offset = try Self.interpret("page[offset]=30&page[limit]=7", .jsonAPI)
        #expect(offset.offset == 30 && offset.pageSize == 7)
        #expect(offset.spelling == .offset(size: "page[limit]", offset: "page[offset]"))
    }

    @Test(arguments: [
        "page[size]=x", "page[number]=0", "filter[price][between]=1", "filter[a][b][c]=1", "filter[]=1",
        "page[number]=1&page[offset]=2", "filter[price][lt]=1&price[lt]=2", "fields[things]=a,,b",
    ])
    func jsonAPIMalformedIs400(_ query: String) {
        #expect(throws: FolioError.self) { try Self.interpret(query, .jsonAPI) }
    }

    @Test func stripeReadsCursors() throws {
        let after = try Self.interpret("limit=3&starting_after=obj_9", .stripe)
        #expect(after.cursor == .after("obj_9") && after.pageSize == 3 && after.offset == 0)
        #expect(try Self.interpret("ending_before=4", .stripe).cursor == .before("4"))
        #expect(try Self.interpret("limit=3", .stripe).cursor == nil)
        for bad in ["starting_after=1&ending_before=2", "starting_after=", "limit=0", "limit=3&limit=4"] {
            #expect(throws: FolioError.self, "\(bad)") { try Self.interpret(bad, .stripe) }
        }
    }

    static func list(_ elements: [String]) -> ItemList {
        var bytes: [UInt8] = Array("[".utf8)
        var starts: [UInt32] = []
        var ends: [UInt32] = []
        for element in elements {
            if !starts.isEmpty { bytes += Array(", ".utf8) }
            starts.append(UInt32(bytes.count))
            bytes += Array(element.utf8)
            ends.append(UInt32(bytes.count))
        }
        return ItemList(bytes: bytes + Array("]".utf8), starts: starts, ends: ends)
    }

    @Test func cursorIDsAreDecodedStringsAndNumbersAsWritten() throws {
        let view = ListView(list: Self.list([#"{"id":"a\u0062"}"#, #"{"id":-1.50}"#, #"{"id":null}"#, "[1]"]))
        let id = try FieldPath("id")
        #expect((0..<4).map { CursorIDs.text(view, at: $0, field: id) } == ["ab", "-1.50", nil, nil])
        #expect(CursorIDs.position(of: "ab", in: view, field: id) == 0)
        #expect(CursorIDs.position(of: "-1.50", in: view, field: id) == 1)
        #expect(CursorIDs.position(of: "-1.5", in: view, field: id) == nil)
        #expect(CursorIDs.position(of: "a\\u0062", in: view, field: id) == nil)
    }

    /// Resource objects: the id member left out of `attributes` (a pointer id leaves its member whole), members'
    /// bytes as written, `fields` cutting attributes only.
    @Test func resourceObjectsCopyMembers() throws {
        let list = Self.list([#"{ "n" : 1.0 ,"id":7, "s":"\u00e9"}"#, #"{"meta":{"key":"k"},"n":2}"#])
        func body(_ idField: String, fields: [String]?, asString: Bool) throws -> String {
            let paging = Paging(totalCount: 2, offset: 0, pageSize: 5, pageBase: 0)
            let page = DialectPage(
                view: ListView(list: list), paging: paging,
                links: LinkBuilder(
                    base: "/t", kept: [], spelling: .offset(size: "l", offset: "o"), pageSize: 5, snapshot: "T"),
                itemsKey: "t", fields: fields.map(SparseFields.init), metadataOnly: false, envelope: true)
            let objects = ResourceObjects(
                page: page, idField: try FieldPath(idField), type: asString ? "t" : nil, idAsString: asString)
            return String(decoding: [UInt8](exactly: objects), as: UTF8.self)
        }
        #expect(
            try body("id", fields: nil, asString: true)
                == #"[{"type":"t","id":"7","attributes":{"n" : 1.0,"s":"\u00e9"}},{"type":"t","id":null,"attributes":{"meta":{"key":"k"},"n":2}}]"#
        )
        #expect(
            try body("/meta/key", fields: ["meta"], asString: false)
                == #"[{"id":null,"attributes":{}},{"id":"k","attributes":{"meta":{"key":"k"}}}]"#)
    }
}
