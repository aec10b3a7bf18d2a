import FolioEngine
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import FolioGateway

/// docs/API.md, "More dialects", `strapi` end to end over `GatewayDialectTests`' routes (`idField: id`): refine's
/// strapi-v4 requests, both paging styles, Strapi's sort, filters and fields against Folio's own, bytes, errors.
@Suite struct GatewayStrapiTests {
    typealias Dialects = GatewayDialectTests

    /// Strapi's entry for a Folio item `{"id":N,…}`: the id as written, the other members as attributes.
    static func entry(_ folioItem: String) throws -> String {
        let match = try #require(folioItem.firstMatch(of: /^\{"id":(\d+),\s*(.*)\}$/))
        return #"{"id":\#(match.1),"attributes":{\#(match.2)}}"#
    }

    @Test func bothPagingStylesVisitEveryItemOnce() async throws {
        try await Dialects.withDialects { client in
            let expected = try Dialects.elements().map(Self.entry)
            var seen: [String] = []
            var page = 1
            var pageCount = 1
            while page <= pageCount {
                let response = try await Dialects.get(
                    client, "/strapi/objects?pagination%5Bpage%5D=\(page)&pagination%5BpageSize%5D=10")
                let pagination = try #require(
                    (try response.json["meta"] as? [String: Any])?["pagination"] as? [String: Any])
                #expect(pagination["page"] as? Int == page && pagination["total"] as? Int == 53)
                pageCount = try #require(pagination["pageCount"] as? Int)
                seen += try rawItems(response.text, key: "data")
                page += 1
            }
            #expect(seen == expected && pageCount == 6)
            seen = []
            var start = 0
            while start < 53 {
                let response = try await Dialects.get(
                    client, "/strapi/objects?pagination[start]=\(start)&pagination[limit]=20")
                let pagination = try #require(
                    (try response.json["meta"] as? [String: Any])?["pagination"] as? [String: Any])
                #expect(Set(pagination.keys) == ["start", "limit", "total"])
                seen += try rawItems(response.text, key: "data")
                start += 20
            }
            #expect(seen == expected)
            // The Link header's next keeps the style.
            let linked = try await Dialects.get(client, "/strapi/objects?pagination[start]=0&pagination[limit]=20")
            #expect(
                Dialects.link(linked, "next")?.contains("pagination%5Blimit%5D=20&pagination%5Bstart%5D=20&snapshot=")
                    == true)
        }
    }

    @Test func sortFiltersAndFieldsAreFolios() async throws {
        try await Dialects.withDialects { client in
            for (strapi, folio) in [
                (
                    "sort=price:desc,id&filters%5Bprice%5D%5B$gte%5D=20&fields%5B0%5D=price",
                    "sort=-price,id&price[gte]=20&fields=id,price"
                ),
                (
                    "sort[0]=price:DESC&sort[1]=id:asc&filters[id][$in][0]=3&filters[id][$in][1]=5&filters[id][$in][2]=8",
                    "sort=-price,id&id=3&id=5&id=8"
                ),
                (
                    "filters[price][$lt]=30&filters[id][$ne]=0&fields[0]=name&fields[1]=price",
                    "price[lt]=30&id[ne]=0&fields=id,name,price"
                ),
                ("q=orst&filters[price][$eq]=37", "q=orst&price=37"),
            ] {
                let ours = try await Dialects.get(client, "/strapi/objects?\(strapi)&pagination[pageSize]=100")
                let theirs = try await Dialects.get(client, "/folio/objects?\(folio)&pageSize=100")
                let expected = try rawItems(theirs.text).map(Self.entry)
                #expect(!expected.isEmpty)
                #expect(try rawItems(ours.text, key: "data") == expected, "\(strapi)")
            }
        }
    }

    @Test func bodyBytesAreExact() async throws {
        try await Dialects.withDialects { client in
            let page = try await Dialects.get(
                client, "/strapi/objects?pagination[page]=3&pagination[pageSize]=20&metadataOnly")
            #expect(page.text == #"{"meta":{"pagination":{"page":3,"pageSize":20,"pageCount":3,"total":53}}}"#)
            let uncounted = try await Dialects.get(
                client,
                "/strapi/objects?pagination[page]=3&pagination[pageSize]=20&pagination[withCount]=false&metadataOnly")
            #expect(uncounted.text == #"{"meta":{"pagination":{"page":3,"pageSize":20}}}"#)
            let offset = try await Dialects.get(
                client, "/strapi/objects?pagination[start]=5&pagination[limit]=1&pagination[withCount]=false")
            #expect(
                offset.text
                    == #"{"data":[{"id":5,"attributes":{"name":"42 things 5","price":84,"tag":"v1"}}],"#
                    + #""meta":{"pagination":{"start":5,"limit":1}}}"#)
        }
    }

    @Test func malformedParametersAreProblems() async throws {
        try await Dialects.withDialects { client in
            for uri in [
                "/strapi/objects?sort=price:sideways", "/strapi/objects?sort=tag", "/strapi/objects?sort[0]=tag:desc",
                "/strapi/objects?filters[price][$between]=1", "/strapi/objects?filters[price][$in][x]=1",
                "/strapi/objects?pagination[pageSize]=x", "/strapi/objects?pagination[withCount]=maybe",
                "/strapi/objects?pagination[page]=1&pagination[start]=0",
            ] {
                _ = try checkProblem(try await client.execute(uri: uri, method: .get), status: 400)
            }
        }
    }
}
