import FolioEngine
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import FolioGateway

/// docs/API.md, "More dialects", `odata` end to end over `GatewayDialectTests`' routes: a grid's walk along
/// `@odata.nextLink`, `$filter`/`$orderby`/`$select`/`$search` against Folio's own parameters, bytes and errors.
@Suite struct GatewayODataTests {
    typealias Dialects = GatewayDialectTests

    @Test func followingNextLinkVisitsEveryItemOnce() async throws {
        try await Dialects.withDialects { client in
            for start in ["/odata/objects?$top=10&$count=true", "/odata/objects", "/odata/objects?%24skip=0&%24top=7"] {
                var seen: [String] = []
                var uri: String? = start
                while let current = uri, seen.count <= 60 {
                    let response = try await Dialects.get(client, current)
                    #expect(response.header("OData-Version") == "4.0")
                    let body = try response.json
                    #expect(body["@odata.context"] as? String == "/$metadata#odata")
                    #expect((body["@odata.count"] as? Int) == (start.contains("count") ? 53 : nil))
                    seen += try rawItems(response.text, key: "value")
                    uri = body["@odata.nextLink"] as? String
                    #expect(uri == Dialects.link(response, "next"))
                }
                #expect(seen == Dialects.elements(), "walk from \(start)")
            }
        }
    }

    @Test func queryOptionsAreFolios() async throws {
        try await Dialects.withDialects { client in
            for (odata, folio) in [
                (
                    "$filter=price%20ge%2020%20and%20price%20lt%2080&$orderby=price%20desc,id",
                    "price[gte]=20&price[lt]=80&sort=-price,id"
                ),
                ("$filter=id eq 3&$select=id, price", "id=3&fields=id,price"),
                ("$filter=price ne 0 and id le 10&$orderby=id desc", "price[ne]=0&id[lte]=10&sort=-id"),
                ("$search=orst&$orderby=price asc", "q=orst&sort=price"),
            ] {
                let query = odata.replacingOccurrences(of: " ", with: "%20")
                let ours = try await Dialects.get(client, "/odata/objects?\(query)&$top=100")
                let theirs = try await Dialects.get(client, "/folio/objects?\(folio)&pageSize=100")
                let expected = try rawItems(theirs.text)
                #expect(!expected.isEmpty)
                #expect(try rawItems(ours.text, key: "value") == expected, "\(odata)")
            }
        }
    }

    @Test func bodyBytesAreExact() async throws {
        try await Dialects.withDialects { client in
            let last = try await Dialects.get(client, "/odata/objects?$top=2&$skip=51&$count=true&$select=id")
            let first = try await Dialects.get(client, "/odata/objects?$top=1&$select=price&metadataOnly")
            let token = try #require(Dialects.link(first, "next")?.components(separatedBy: "snapshot=").last)
            // The last page of a route with `idField` ends with its delta link (docs/API.md, "OData deltas").
            #expect(
                last.text == #"{"@odata.context":"/$metadata#odata","@odata.count":53,"value":[{"id":51},{"id":52}],"#
                    + #""@odata.deltaLink":"/odata/objects?$count=true&$select=id&%24deltatoken="# + token + "\"}")
            #expect(
                first.text
                    == #"{"@odata.context":"/$metadata#odata","@odata.nextLink":"/odata/objects?$select=price&%24top=1&%24skip=1&snapshot=\#(token)"}"#
            )
        }
        try await Dialects.withDialects(server: "publicBaseURL: https://api.example.com") { client in
            let body = try await Dialects.get(client, "/odata/objects?$top=1").json
            #expect(body["@odata.context"] as? String == "https://api.example.com/$metadata#odata")
            #expect((body["@odata.nextLink"] as? String)?.hasPrefix("https://api.example.com/odata/objects?") == true)
        }
    }

    /// Each malformed `$filter` says what it expected and where.
    @Test func malformedOptionsAreProblems() async throws {
        try await Dialects.withDialects { client in
            for (uri, says) in [
                ("/odata/objects?$filter=price%20eq", "expected a number or a 'string' after 'price eq'"),
                ("/odata/objects?$filter=price%20eq%205%20or%20id%20eq%201", "'and' or the end of the filter"),
                ("/odata/objects?$filter=price%20between%205", "expected an operator"),
                ("/odata/objects?$filter=tag%20eq%20'x'", "not a filterable property"),
                ("/odata/objects?$filter=contains(name,'a')", "functions"),
                ("/odata/objects?$orderby=price%20sideways", "$orderby"),
                ("/odata/objects?$count=yes", "$count"),
                ("/odata/objects?$top=x", "$top"),
                ("/odata/objects?$orderby=tag", "tag"),
            ] {
                let detail = try checkProblem(try await client.execute(uri: uri, method: .get), status: 400)
                #expect(detail.contains(says), "\(uri): \(detail)")
            }
        }
    }

    /// docs/API.md, "OData deltas": the last page's `@odata.deltaLink` answers, after the list changed, the items
    /// added to the view or changed (as written, members in the upstream's order, items in view order), then the ids that left it (`deleted`, or `changed`
    /// when the list still holds them), and a delta link of the newest snapshot; an unknown token is 410.
    @Test func theDeltaLinkAnswersWhatChangedInTheView() async throws {
        typealias Changes = GatewayChangesTests
        let list = Changes.ChangingList((0..<8).map { Changes.item($0, price: $0 * 10, tag: $0 % 2 == 0 ? "a" : "b") })
        let route = Changes.route + "\ndialect: odata"
        try await Changes.withChangingGateway(list, route: route) { client in
            let query = "$filter=tag%20eq%20%27a%27&$orderby=price%20desc&$select=id,price,tag"
            let first = try await client.execute(uri: "/objects?\(query)&$top=3", method: .get)
            #expect(try first.json["@odata.deltaLink"] == nil, "not on a page that has a next link")
            var last = try await client.execute(uri: "/objects?\(query)&$top=3&$skip=3", method: .get)
            #expect(try last.json["@odata.nextLink"] == nil)
            let deltaLink = try #require(try last.json["@odata.deltaLink"] as? String)
            #expect(deltaLink.hasPrefix("/objects?\(query)&%24deltatoken="), "\(deltaLink)")
            list.items.withLock { items in
                items[2] = Changes.item(2, price: 25, tag: "a")  // changed, moves
                items[4] = Changes.item(4, price: 40, tag: "b")  // leaves the view: changed
                items.remove(at: 6)  // deleted
                items.append(Changes.item(9, price: 5, tag: "a"))  // added
                items[1] = Changes.item(1, price: 99, tag: "b")  // outside the view both times
            }
            let delta = try await client.execute(uri: deltaLink, method: .get)
            #expect(delta.status == .ok)
            #expect(delta.headers[HTTPField.Name("OData-Version")!] == "4.0")
            let body = delta.text
            let newLink = try #require(try delta.json["@odata.deltaLink"] as? String)
            #expect(newLink != deltaLink)
            let expected =
                #"{"@odata.context":"/$metadata#objects/$delta","value":[{"id":2,"tag":"a","price":25.50},"#
                + #"{"id":9,"tag":"a","price":5.50},{"@removed":{"reason":"deleted"},"id":6},"#
                + #"{"@removed":{"reason":"changed"},"id":4}],"@odata.deltaLink":"# + "\"\(newLink)\"}"
            #expect(body == expected)
            // Nothing changed since: an empty delta; the new link's own answer is its own.
            let empty = try await client.execute(uri: newLink, method: .get)
            #expect(try (empty.json["value"] as? [Any])?.isEmpty == true)
            last = try await client.execute(uri: "/objects?\(query)&$deltatoken=nosuchtoken", method: .get)
            #expect(last.status == .gone)
        }
    }
}
