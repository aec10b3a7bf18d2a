import Foundation
import HummingbirdTesting
import Logging
import Testing

@testable import FolioGateway

/// Runs the demo's built-in config (its upstream address and listeners rewritten for a test)
/// over a live `DemoUpstream` while `body` runs.
func withDemoGateway(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
    try await withDemoGateway { gateway, _ in try await body(gateway) }
}

/// The same, with the config's text edited by `edit` first, and `body` given a client of the
/// built-in upstream too.
func withDemoGateway(
    editing edit: @Sendable (String) -> String = { $0 },
    _ body: @Sendable (_ gateway: any TestClientProtocol, _ upstream: any TestClientProtocol) async throws -> Void
) async throws {
    var logger = Logger(label: "folio.test.demo")
    logger.logLevel = .critical
    let demo = DemoUpstream.application(logger: logger) { _ in }
    try await demo.test(.live) { upstreamClient in
        let port = try #require(upstreamClient.port)
        let yaml = DemoConfiguration.yaml
            .replacingOccurrences(of: "http://demo-upstream", with: "http://127.0.0.1:\(port)")
            .replacingOccurrences(of: "listen: 127.0.0.1:8080", with: "listen: 127.0.0.1:0")
            .replacingOccurrences(of: "admin: 127.0.0.1:0", with: "admin: null")
        try await withGateway(edit(yaml)) { client, _ in try await body(client, upstreamClient) }
    }
}

/// The demo serves one route per dialect (docs/API.md, "Dialects"); the README's and the tour's requests give
/// the same items as Folio's own route over the same list.
@Suite struct DemoDialectTests {
    @Test func readmeRequestsPerDialect() async throws {
        try await withDemoGateway { client in
            let folio = try await client.execute(uri: "/objects?pageSize=3&offset=3", method: .get)
            let expected = try rawItems(folio.text)
            #expect(expected.count == 3)

            let drf = try await client.execute(uri: "/drf/objects?page=2&page_size=3", method: .get)
            #expect(try rawItems(drf.text, key: "results") == expected)
            #expect(try drf.json["count"] as? Int == DemoData.count)

            let hal = try await client.execute(uri: "/hal/objects?page=1&size=3", method: .get)
            #expect(try rawItems(hal.text, key: "objects") == expected)
            #expect(hal.header("Content-Type") == "application/hal+json")

            let jsonServer = try await client.execute(uri: "/jsonserver/objects?_page=2&_limit=3", method: .get)
            #expect(try rawItems("{\"x\":" + jsonServer.text + "}", key: "x") == expected)
            #expect(jsonServer.header("X-Total-Count") == String(DemoData.count))

            let simpleRest = try await client.execute(uri: "/simplerest/objects?range=%5B3%2C5%5D", method: .get)
            #expect(try rawItems("{\"x\":" + simpleRest.text + "}", key: "x") == expected)
            #expect(simpleRest.header("Content-Range") == "objects 3-5/\(DemoData.count)")

            let laravel = try await client.execute(uri: "/laravel/objects?page=2&per_page=3", method: .get)
            #expect(try rawItems(laravel.text, key: "data") == expected)
            #expect(try laravel.json["total"] as? Int == DemoData.count)

            let jsonAPI = try await client.execute(
                uri: "/jsonapi/objects?page%5Bnumber%5D=2&page%5Bsize%5D=3", method: .get)
            #expect((try jsonAPI.json["data"] as? [[String: Any]])?.count == 3)
            #expect(jsonAPI.text.contains(#""type":"objects","id":""#))

            let odata = try await client.execute(uri: "/odata/objects?$skip=3&$top=3&$count=true", method: .get)
            #expect(try rawItems(odata.text, key: "value") == expected)
            #expect(try odata.json["@odata.count"] as? Int == DemoData.count)

            let strapi = try await client.execute(
                uri: "/strapi/objects?pagination%5Bpage%5D=2&pagination%5BpageSize%5D=3", method: .get)
            #expect(try (strapi.json["data"] as? [[String: Any]])?.count == 3)

            let stripe = try await client.execute(uri: "/stripe/objects?limit=3", method: .get)
            let firstThree = try rawItems(
                try await client.execute(uri: "/objects?pageSize=3", method: .get).text)
            #expect(try rawItems(stripe.text, key: "data") == firstThree)
            #expect(try stripe.json["has_more"] as? Bool == true)
        }
    }
}
