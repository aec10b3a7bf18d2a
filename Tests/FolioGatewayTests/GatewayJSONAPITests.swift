import FolioEngine
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import FolioGateway

/// docs/API.md, "More dialects", `jsonapi` end to end over `GatewayDialectTests`' routes (type: the route's name,
/// `jsonapi`; `idField: id`): a JSON:API client's walk along `links.next`, Folio's own view through JSON:API's
/// spellings, the bytes of resource objects, and the errors.
@Suite struct GatewayJSONAPITests {
    typealias Dialects = GatewayDialectTests

    /// The resource object JSON:API writes for a Folio item `{"id":N,…}`: the id in quotes, the other members as
    /// they are (Folio joins cut members with `,`, as the attributes are joined).
    static func resource(_ folioItem: String) throws -> String {
        let match = try #require(folioItem.firstMatch(of: /^\{"id":(\d+),\s*(.*)\}$/))
        return #"{"type":"jsonapi","id":"\#(match.1)","attributes":{\#(match.2)}}"#
    }

    @Test func followingLinksNextVisitsEveryItemOnce() async throws {
        try await Dialects.withDialects { client in
            let expected = try Dialects.elements().map(Self.resource)
            for (start, form) in [
                ("/jsonapi/objects?page%5Bsize%5D=10", "page"), ("/jsonapi/objects?page[number]=1", "page"),
                ("/jsonapi/objects?page%5Boffset%5D=0&page%5Blimit%5D=10", "offset"),
            ] {
                var seen: [String] = []
                var uri: String? = start
                while let current = uri, seen.count <= 60 {
                    let response = try await Dialects.get(client, current)
                    #expect(response.header("Content-Type") == "application/vnd.api+json")
                    let body = try response.json
                    let links = try #require(body["links"] as? [String: Any])
                    #expect(Set(links.keys) == ["self", "first", "prev", "next", "last"])
                    #expect((links["next"] as? String) == Dialects.link(response, "next"))
                    #expect((links["prev"] as? String) == Dialects.link(response, "prev"))
                    #expect(links["prev"] is NSNull || !seen.isEmpty)
                    let pagination = try #require((body["meta"] as? [String: Any])?["pagination"] as? [String: Any])
                    #expect(pagination["count"] as? Int == 53)
                    #expect(
                        Set(pagination.keys)
                            == (form == "page" ? ["page", "pages", "count"] : ["count", "limit", "offset"]))
                    seen += try rawItems(response.text, key: "data")
                    uri = links["next"] as? String
                }
                #expect(seen.count == 53 && seen == Array(expected.prefix(seen.count)), "walk from \(start)")
            }
        }
    }

    /// `sort`, `filter[…]` and `fields[TYPE]` give the same items as Folio's own parameters over the same list.
    @Test func sortFiltersAndFieldsAreFolios() async throws {
        try await Dialects.withDialects { client in
            for (jsonAPI, folio) in [
                (
                    "sort=-price&filter%5Bprice%5D%5Bgte%5D=20&fields%5Bjsonapi%5D=price",
                    "sort=-price&price%5Bgte%5D=20&fields=id,price"
                ),
                ("filter[id]=3&filter[id]=5&filter[price][lt]=90", "id=3&id=5&price[lt]=90"),
                ("filter[price][eq]=37&fields[jsonapi]=name,price", "price=37&fields=id,name,price"),
                ("q=orst&sort=id&fields[other]=name", "q=orst&sort=id"),
            ] {
                let ours = try await Dialects.get(client, "/jsonapi/objects?\(jsonAPI)&page[size]=100")
                let theirs = try await Dialects.get(client, "/folio/objects?\(folio)&pageSize=100")
                let expected = try rawItems(theirs.text).map(Self.resource)
                #expect(!expected.isEmpty)
                #expect(try rawItems(ours.text, key: "data") == expected, "\(jsonAPI)")
            }
        }
    }

    /// Member order and number spellings byte for byte: the links, then `meta.pagination` (a metadata-only body).
    @Test func bodyBytesAreExact() async throws {
        try await Dialects.withDialects { client in
            let response = try await Dialects.get(
                client, "/jsonapi/objects?page%5Bsize%5D=20&page%5Bnumber%5D=3&metadataOnly")
            let token = try #require(Dialects.link(response, "first")?.components(separatedBy: "snapshot=").last)
            let url = { (page: Int) in
                "\"/jsonapi/objects?page%5Bsize%5D=20&page%5Bnumber%5D=\(page)&snapshot=\(token)\""
            }
            #expect(
                response.text
                    == #"{"links":{"self":\#(url(3)),"first":\#(url(1)),"prev":\#(url(2)),"next":null,"last":\#(url(3))},"#
                    + #""meta":{"pagination":{"page":3,"pages":3,"count":53}}}"#)
            let first = try await Dialects.get(client, "/jsonapi/objects?page[size]=1")
            #expect(
                first.text.hasPrefix(
                    #"{"data":[{"type":"jsonapi","id":"0","attributes":{"name":"Apple 0","price":0,"tag":"v1"}}],"#))
        }
    }

    @Test func malformedParametersAreProblems() async throws {
        try await Dialects.withDialects { client in
            for uri in [
                "/jsonapi/objects?page%5Bsize%5D=x", "/jsonapi/objects?page%5Bnumber%5D=0",
                "/jsonapi/objects?filter%5Bprice%5D%5Bbetween%5D=1", "/jsonapi/objects?filter%5Ba%5D%5Bb%5D%5Bc%5D=1",
                "/jsonapi/objects?page%5Bnumber%5D=2&page%5Boffset%5D=3", "/jsonapi/objects?sort=tag",
                "/jsonapi/objects?filter%5Bprice%5D%5Bgte%5D=1&price%5Bgte%5D=2",
            ] {
                _ = try checkProblem(try await client.execute(uri: uri, method: .get), status: 400)
            }
        }
    }

    /// A list with an item that has no id, or whose id is no string or number, cannot be written as resources.
    @Test func itemsWithoutIDAre502() async throws {
        let body = #"[{"id":"a","n":1},{"id":true,"n":2},{"n":3}]"#
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            let yaml = """
                server:
                  listen: 127.0.0.1:0
                  admin: null
                routes:
                  - { name: things, path: /things, upstream: "\(upstream.baseURL)/things", dialect: jsonapi, idField: id }
                  - { name: plain, path: /plain, upstream: "\(upstream.baseURL)/things", idField: id }
                """
            try await withGateway(yaml) { client, _ in
                let problem = try checkProblem(
                    try await client.execute(uri: "/things?page[size]=1", method: .get), status: 502,
                    code: "items-without-id")
                #expect(problem.contains("item 1"))
                let plain = try await client.execute(uri: "/plain", method: .get)
                #expect(plain.status == .ok)
            }
        }
    }
}
