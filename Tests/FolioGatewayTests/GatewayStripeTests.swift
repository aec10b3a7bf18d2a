import FolioEngine
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import FolioGateway

/// docs/API.md, "More dialects", `stripe` end to end over `GatewayDialectTests`' routes (`idField: id`): an SDK's
/// auto-pagination by `starting_after`, backwards by `ending_before`, the order of Folio's `sort`, and the errors.
@Suite struct GatewayStripeTests {
    typealias Dialects = GatewayDialectTests

    static func id(_ item: String) throws -> String {
        try #require(item.firstMatch(of: /^\{"id":(\d+),/)).1.description
    }

    /// Forwards by the last item's id, as Stripe's SDKs do, and by the `Link` header's `next`.
    @Test func startingAfterVisitsEveryItemOnce() async throws {
        try await Dialects.withDialects { client in
            let byPrice = try Dialects.elements().sorted { try Dialects.price($0) > Dialects.price($1) }
            for (view, expected) in [("", Dialects.elements()), ("&sort=-price", byPrice)] {
                var seen: [String] = []
                var cursor = ""
                var more = true
                while more, seen.count <= 60 {
                    let response = try await Dialects.get(client, "/stripe/objects?limit=10\(view)\(cursor)")
                    let body = try response.json
                    #expect(body["object"] as? String == "list" && body["url"] as? String == "/stripe/objects")
                    let items = try rawItems(response.text, key: "data")
                    seen += items
                    more = try #require(body["has_more"] as? Bool)
                    #expect(more == (Dialects.link(response, "next") != nil))
                    cursor = try "&starting_after=" + Self.id(#require(items.last))
                }
                #expect(seen == expected, "walk \(view)")

                seen = []
                var uri: String? = "/stripe/objects?limit=7\(view)"
                while let current = uri, seen.count <= 60 {
                    let response = try await Dialects.get(client, current)
                    seen += try rawItems(response.text, key: "data")
                    uri = Dialects.link(response, "next")
                }
                #expect(seen == expected, "Link walk \(view)")
            }
        }
    }

    @Test func endingBeforeWalksBackwards() async throws {
        try await Dialects.withDialects { client in
            var seen: [String] = []
            var cursor = "52"
            var more = true
            while more, seen.count <= 60 {
                let response = try await Dialects.get(client, "/stripe/objects?limit=10&ending_before=\(cursor)")
                let items = try rawItems(response.text, key: "data")
                seen = items + seen
                more = try #require(try response.json["has_more"] as Any? as? Bool)
                cursor = try Self.id(#require(items.first))
            }
            #expect(seen == Array(Dialects.elements().dropLast()))
            let none = try await Dialects.get(client, "/stripe/objects?ending_before=0")
            #expect(none.text == #"{"object":"list","url":"/stripe/objects","has_more":false,"data":[]}"#)
        }
    }

    /// Member order, the items' bytes and `has_more` exactly; Folio's `fields` and filters inside.
    @Test func bodyBytesAreExact() async throws {
        try await Dialects.withDialects { client in
            let folio = try await Dialects.get(client, "/folio/objects?pageSize=3&offset=50&fields=id,price")
            let stripe = try await Dialects.get(client, "/stripe/objects?limit=3&starting_after=49&fields=id,price")
            let items = try rawItems(folio.text).joined(separator: ",")
            #expect(
                stripe.text == #"{"object":"list","url":"/stripe/objects","has_more":false,"data":["# + items + "]}")
            let filtered = try await Dialects.get(client, "/stripe/objects?price%5Bgte%5D=50&limit=100")
            let expected = try Dialects.elements().filter { try Dialects.price($0) >= 50 }
            #expect(try rawItems(filtered.text, key: "data") == expected)
        }
    }

    @Test func cursorsAreCheckedAgainstTheSnapshot() async throws {
        try await Dialects.withDialects { client in
            _ = try checkProblem(
                try await client.execute(uri: "/stripe/objects?starting_after=999", method: .get), status: 400,
                code: "unknown-cursor")
            _ = try checkProblem(
                try await client.execute(uri: "/stripe/objects?ending_before=x", method: .get), status: 400,
                code: "unknown-cursor")
            for uri in [
                "/stripe/objects?starting_after=1&ending_before=5", "/stripe/objects?limit=0",
                "/stripe/objects?limit=x", "/stripe/objects?starting_after=", "/stripe/objects?sort=tag",
            ] {
                _ = try checkProblem(try await client.execute(uri: uri, method: .get), status: 400)
            }
        }
    }

    /// String ids match by their decoded text; a number id by its text as written.
    @Test func stringIDsMatchTheirDecodedText() async throws {
        let body = #"[{"id":"a"},{"id":"b\/c"},{"id":"d"},{"id":7.50}]"#
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            let yaml = """
                server:
                  listen: 127.0.0.1:0
                  admin: null
                routes:
                  - { name: s, path: /s, upstream: "\(upstream.baseURL)/s", dialect: stripe, idField: id }
                """
            try await withGateway(yaml) { client, _ in
                let after = try await client.execute(uri: "/s?limit=1&starting_after=b%2Fc", method: .get)
                #expect(after.text.hasSuffix(#""data":[{"id":"d"}]}"#))
                #expect(Dialects.link(after, "next")?.contains("starting_after=d&") == true)
                let number = try await client.execute(uri: "/s?ending_before=7.50", method: .get)
                #expect(try rawItems(number.text, key: "data").count == 3)
                let first = try await client.execute(uri: "/s?limit=2", method: .get)
                #expect(Dialects.link(first, "next")?.contains("limit=2&starting_after=b%2Fc&snapshot=") == true)
            }
        }
    }
}
