import FolioTestSupport
import Foundation
import Testing

@testable import FolioClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Each dialect adapter reads bodies exactly as docs/API.md, "Dialects" writes them, and asks with the
/// dialect's own paging parameters.
@Suite struct DialectTests {
    static let items = upstreamItems(3).items
    static let array =
        "["
        + items.map { #"{"id":\#($0.id),"name":"\#($0.name)","category":"\#($0.category)","tag":"v1"}"# }
        .joined(separator: ",") + "]"
    static let token = "k3J9xQ2bLm0aZ8Yt"
    static let link =
        #"</objects?p=1&snapshot=\#(token)>; rel="first", </objects?p=2&snapshot=\#(token)>; rel="next""#

    struct Case: Sendable, CustomTestStringConvertible {
        var dialect: Dialect
        var body: String
        var headers: [String: String]
        /// The paging parameters of the request for 20 items at offset 40.
        var query: String
        var testDescription: String { dialect.rawValue }
    }

    static let cases: [Case] = [
        Case(
            dialect: .folio,
            body: #"""
                {"paging":{"totalCount":95,"offset":40,"pageSize":20,"page":2,"pageCount":5,"pageBase":0,"hasMore":true,"snapshot":"\#(token)","first":"/objects?pageSize=20&offset=0&snapshot=\#(token)","previous":"/objects?pageSize=20&offset=20&snapshot=\#(token)","next":"/objects?pageSize=20&offset=60&snapshot=\#(token)","last":"/objects?pageSize=20&offset=80&snapshot=\#(token)"},"objects":\#(array)}
                """#,
            headers: ["Link": link, "X-Total-Count": "95"], query: "pageSize=20&offset=40"),
        Case(
            dialect: .folio, body: array, headers: ["Link": link, "X-Total-Count": "95"],
            query: "pageSize=20&offset=40"),
        Case(
            dialect: .drf,
            body: #"""
                {"count": 95, "next": "http://h/objects?limit=20&offset=60&snapshot=\#(token)", "previous": "http://h/objects?limit=20&offset=20&snapshot=\#(token)", "results": \#(array)}
                """#,
            headers: ["Link": link, "X-Total-Count": "95"], query: "limit=20&offset=40"),
        Case(
            dialect: .hal,
            body: #"""
                {"_embedded": {"objects": \#(array)}, "_links": {"first": {"href": "/objects?page=0&size=20&snapshot=\#(token)"}, "prev": {"href": "/objects?page=1&size=20&snapshot=\#(token)"}, "self": {"href": "/objects?page=2&size=20&snapshot=\#(token)"}, "next": {"href": "/objects?page=3&size=20&snapshot=\#(token)"}, "last": {"href": "/objects?page=4&size=20&snapshot=\#(token)"}}, "page": {"size": 20, "totalElements": 95, "totalPages": 5, "number": 2}}
                """#,
            headers: ["Link": link, "X-Total-Count": "95", "Content-Type": "application/hal+json"],
            query: "page=2&size=20"),
        Case(
            dialect: .jsonServer, body: array, headers: ["Link": link, "X-Total-Count": "95"],
            query: "_start=40&_end=60"),
        Case(
            dialect: .simpleRest, body: array, headers: ["Link": link, "Content-Range": "objects 40-59/95"],
            query: "range=%5B40,59%5D"),
    ]

    @Test(arguments: cases) func readsTheDialectsPage(_ example: Case) async throws {
        let transport = CannedTransport(body: example.body, headers: example.headers)
        let endpoint = ListEndpoint(
            url: URL(string: "http://h/objects?category=a&name=%41")!, dialect: example.dialect, transport: transport)
        let page: Page<Item> = try await endpoint.page(endpoint.pageURL(offset: 40, limit: 20, snapshot: "T"))
        #expect(page.items == Self.items)
        #expect(page.totalCount == 95)
        #expect(page.snapshot == Self.token)
        #expect(page.hasMore)
        let next = try #require(page.next.flatMap(endpoint.resolve))
        #expect(URLComponents(url: next, resolvingAgainstBaseURL: false)?.queryItems?.last?.value == Self.token)
        let asked = try #require(transport.requested.first)
        // The app's own parameters first, bytes unchanged (%41 stays encoded).
        #expect(asked.query == "category=a&name=%41&" + example.query + "&snapshot=T")
    }

    @Test func emptySimpleRestAndHALPagesHaveNoItems() throws {
        let url = URL(string: "http://h/objects")!
        let empty = HTTPURLResponse(
            url: url, statusCode: 200, httpVersion: nil, headerFields: ["Content-Range": "objects */0"])!
        let simple = try Dialect.simpleRest.page(of: Item.self, from: Data("[]".utf8), response: empty)
        #expect(simple.items.isEmpty && simple.totalCount == 0 && !simple.hasMore)
        let halBody =
            #"{"_links": {"first": {"href": "/objects?page=0&size=20"}}, "page": {"size": 20, "totalElements": 0, "totalPages": 0, "number": 0}}"#
        let hal = try Dialect.hal.page(of: Item.self, from: Data(halBody.utf8), response: empty)
        #expect(hal.items.isEmpty && hal.totalCount == 0 && !hal.hasMore)
    }

    @Test func aBareArrayWithoutItsTotalIsMalformed() {
        let response = HTTPURLResponse(
            url: URL(string: "http://h/o")!, statusCode: 200, httpVersion: nil, headerFields: [:])!
        #expect(throws: ClientError.self) {
            try Dialect.jsonServer.page(of: Item.self, from: Data("[]".utf8), response: response)
        }
    }

    /// `envelope: false` on the real gateway: the folio dialect reads the bare array and its
    /// `X-Total-Count`, and pins the snapshot from the `Link` header.
    @Test func bareArrayRouteEndToEnd() async throws {
        let (body, items) = upstreamItems(61)
        let sorted = sortedByName(items)
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withClientGateway(clientYAML(upstream: upstream.baseURL, envelope: false)) { objects, _ in
                let list = PagedList<Item>(endpoint: ListEndpoint(url: objects), pageSize: 10, prefetchMargin: 0)
                try await list.load()
                #expect(list.count == 61)
                #expect(list.snapshot != nil)
                var changes = list.changes.makeAsyncIterator()
                var seen: [Item] = []
                for index in 0..<list.count { seen.append(try await element(list, at: index, changes: &changes)) }
                #expect(seen == sorted)
            }
        }
    }
}
