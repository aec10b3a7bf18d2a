import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import FolioGateway

/// What reaches the upstream, what comes back, CORS (docs/API.md, "Proxy headers", "CORS").
@Suite struct GatewayProxyTests {
    @Test func hostHeaderNeverReachesLinksOrUpstream() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(30).body) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL)) { client, _ in
                // One `Host` (AsyncHTTPClient sends the given one instead of its own); two would be a
                // framing error (ContractReadingsTests).
                let response = try await withHTTPClient { http in
                    try await http.answer(
                        "http://127.0.0.1:\(try #require(client.port))/objects?pageSize=10",
                        headers: [
                            ("Host", "evil.example"), ("X-Forwarded-Host", "evil.example"),
                            ("Forwarded", "host=evil.example"),
                        ])
                }
                #expect(response.status == 200)
                #expect(!response.text.contains("evil.example"))
                #expect(response.headers.first(name: "Link")?.contains("evil.example") == false)
                let recorded = try #require(upstream.requests.first)
                #expect(recorded.header("Host")?.contains("evil.example") == false)
                #expect(recorded.header("X-Forwarded-Host") == nil)
                #expect(recorded.header("Forwarded") == nil, "Forwarded is dropped from untrusted peers")
            }
        }
    }

    @Test func publicBaseURLMakesAbsoluteLinks() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(30).body) }) { upstream in
            let yaml = gatewayYAML(upstream: upstream.baseURL).replacingOccurrences(
                of: "  admin: null", with: "  admin: null\n  publicBaseURL: https://api.example.com")
            try await withGateway(yaml) { client, _ in
                let response = try await client.execute(uri: "/objects?pageSize=10&x=a%20b", method: .get)
                let next = try #require(try response.json.paging["next"] as? String)
                #expect(next.hasPrefix("https://api.example.com/objects?x=a%20b&pageSize=10&offset=10&snapshot="))
            }
        }
    }

    @Test func forwardedForAndRequestID() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(3).body) }) { upstream in
            try await withGateway(
                gatewayYAML(upstream: upstream.baseURL, route: "cache: { ttl: 0s, staleWhileRevalidate: 0s }")
            ) { client, _ in
                let response = try await client.execute(
                    uri: "/objects", method: .get,
                    headers: [.xForwardedFor: "6.6.6.6", .xRequestID: "abc-123"])
                #expect(response.header("X-Request-ID") == "abc-123")
                let recorded = try #require(upstream.requests.last)
                let xff = try #require(recorded.header("X-Forwarded-For"))
                #expect(!xff.contains("6.6.6.6"), "an untrusted peer's X-Forwarded-For is replaced")
                #expect(recorded.header("X-Request-ID") == "abc-123")
                let bad = try await client.execute(
                    uri: "/objects", method: .get, headers: [.xRequestID: "no spaces allowed"])
                let replaced = try #require(bad.header("X-Request-ID"))
                #expect(replaced != "no spaces allowed" && !replaced.isEmpty)
            }
        }
    }

    @Test func corsPreflightAndSimpleRequests() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(3).body) }) { upstream in
            let yaml = gatewayYAML(upstream: upstream.baseURL).replacingOccurrences(
                of: "  admin: null", with: "  admin: null\n  cors:\n    allowOrigins: [\"https://app.example.com\"]")
            try await withGateway(yaml) { client, _ in
                let preflight = try await client.execute(
                    uri: "/objects", method: .options,
                    headers: [
                        .origin: "https://app.example.com", .accessControlRequestMethod: "GET",
                        .accessControlRequestHeaders: "X-Custom, Range",
                    ])
                #expect(preflight.status == .noContent)
                #expect(preflight.header("Access-Control-Allow-Origin") == "https://app.example.com")
                #expect(preflight.header("Access-Control-Allow-Methods") == "GET, HEAD, POST, PUT, PATCH, DELETE")
                #expect(preflight.header("Access-Control-Allow-Headers") == "X-Custom, Range")
                #expect(preflight.header("Access-Control-Max-Age") == "600")
                #expect(preflight.header("Vary")?.contains("Origin") == true)
                let foreign = try await client.execute(
                    uri: "/objects", method: .options,
                    headers: [.origin: "https://evil.example", .accessControlRequestMethod: "GET"])
                #expect(foreign.status == .noContent)
                #expect(foreign.header("Allow") != nil)
                #expect(foreign.header("Access-Control-Allow-Origin") == nil)
                // An OPTIONS that is no preflight gets no allow headers, even from an allowed
                // origin (docs/API.md, "Headers on every page"); it is still a route answer.
                let plain = try await client.execute(
                    uri: "/objects", method: .options, headers: [.origin: "https://app.example.com"])
                #expect(plain.status == .noContent)
                #expect(plain.header("Allow") != nil)
                #expect(!plain.headers.contains { $0.name.canonicalName.hasPrefix("access-control-allow-") })
                #expect(plain.header("Access-Control-Expose-Headers") == CORSRules.exposed)
                #expect(plain.header("Vary")?.contains("Origin") == true)
                let simple = try await client.execute(
                    uri: "/objects", method: .get, headers: [.origin: "https://app.example.com"])
                #expect(simple.header("Access-Control-Allow-Origin") == "https://app.example.com")
                #expect(upstream.requests.allSatisfy { $0.method == "GET" }, "preflights never reach the upstream")
            }
        }
    }

    /// The fallback gets the request's path after its own path prefix, if it has one (a
    /// trailing `/` of the prefix is not doubled).
    @Test(arguments: [("", ""), ("/legacy", "/legacy"), ("/legacy/", "/legacy")])
    func unmatchedPathsGoToTheFallbackUpstream(prefix: String, sent: String) async throws {
        try await withTestUpstream({ request in .json(#"{"fallback":"\#(request.path)"}"#, status: 202) }) { fallback in
            try await withTestUpstream({ _ in .json("[]") }) { upstream in
                let yaml = gatewayYAML(upstream: upstream.baseURL).replacingOccurrences(
                    of: "  admin: null", with: "  admin: null\n  fallbackUpstream: \(fallback.baseURL)\(prefix)")
                try await withGateway(yaml) { client, _ in
                    let response = try await client.execute(uri: "/other/thing?x=1", method: .get)
                    #expect(response.status == .accepted)
                    #expect(response.text == #"{"fallback":"\#(sent)/other/thing"}"#)
                    #expect(fallback.requests.first?.query == "x=1")
                }
            }
        }
    }

    /// A forwarded answer goes out decoded where Folio decoded it (gzip, deflate) and as
    /// received, label and all, where it did not (`br`): never as compressed bytes that claim
    /// to be plain.
    @Test func forwardedAnswersKeepTheCodingFolioDidNotDecode() async throws {
        let plain = Array(String(repeating: "fallback body ", count: 40).utf8)
        let brotli: [UInt8] = [0x1B, 0x2F, 0x00, 0xF8, 0xA5, 0x40, 0x62, 0xDB, 0x0F, 0x90]
        try await withTestUpstream({ request in
            request.path == "/gz"
                ? TestUpstream.Reply(headers: [("Content-Encoding", "gzip")], body: Gzip.compress(plain))
                : TestUpstream.Reply(headers: [("Content-Encoding", "br")], body: brotli)
        }) { fallback in
            let yaml = gatewayYAML(upstream: fallback.baseURL).replacingOccurrences(
                of: "  admin: null", with: "  admin: null\n  fallbackUpstream: \(fallback.baseURL)")
            try await withGateway(yaml) { client, _ in
                let gzip = try await client.execute(uri: "/gz", method: .get)
                #expect(Array(gzip.body.readableBytesView) == plain)
                #expect(gzip.header("Content-Encoding") == nil)
                let br = try await client.execute(uri: "/br", method: .get)
                #expect(Array(br.body.readableBytesView) == brotli)
                #expect(br.header("Content-Encoding") == "br")
            }
        }
    }

    /// A field the client's `Connection` names is hop-by-hop (docs/API.md, "Proxy headers"): a `vary` header or a
    /// credential named there neither reaches the upstream nor selects the list, and a
    /// forwarding-chain field named there does not reach it either, even from a trusted proxy.
    @Test func fieldsNamedInConnectionNeitherGoUpstreamNorSelectTheList() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(3).body) }) { upstream in
            let yaml = gatewayYAML(
                upstream: upstream.baseURL, server: "trustedProxies: [127.0.0.1/32]", route: "vary: [Accept-Language]")
            try await withGateway(yaml) { client, _ in
                // Raw, so that no client library rewrites `Connection`.
                let connection = try await RawConnection.open(port: try #require(client.port))
                try await connection.send(
                    "GET /objects HTTP/1.1\r\nHost: a\r\nAccept-Language: fr\r\nAuthorization: Bearer alice\r\n"
                        + "X-Forwarded-For: 203.0.113.9\r\nForwarded: for=203.0.113.9\r\n"
                        + "Connection: keep-alive, Accept-Language,authorization\r\n"
                        + "Connection: x-forwarded-for, FORWARDED\r\n\r\n")
                #expect(await connection.waitFor("\r\n\r\n"), "\(connection.received)")
                #expect(connection.received.hasPrefix("HTTP/1.1 200"), "\(connection.received)")
                #expect(
                    connection.received.contains("Cache-Status: folio; fwd=miss; stored\r\n"),
                    "no bypass: no credential; \(connection.received)")
                await connection.close()
                let sent = try #require(upstream.requests.first)
                #expect(sent.header("Accept-Language") == nil && sent.header("Authorization") == nil)
                #expect(sent.header("X-Forwarded-For") == "127.0.0.1", "the chain the client named is dropped")
                #expect(sent.header("Forwarded") == nil && sent.header("Connection") == nil)
                let plain = try await client.execute(uri: "/objects", method: .get)
                #expect(plain.header("Cache-Status")?.hasPrefix("folio; hit") == true, "the same list")
                let french = try await client.execute(uri: "/objects", method: .get, headers: [.acceptLanguage: "fr"])
                #expect(french.header("Cache-Status") == "folio; fwd=miss; stored")
                #expect(upstream.requests.last?.header("Accept-Language") == "fr")
            }
        }
    }

    @Test func pathPlaceholdersSelectUpstreamAndCacheKey() async throws {
        try await withTestUpstream({ request in .json(#"[{"path":"\#(request.path)"}]"#) }) { upstream in
            let yaml = """
                server:
                  listen: 127.0.0.1:0
                  admin: null
                routes:
                  - name: orders
                    path: /users/{id}/orders
                    upstream: \(upstream.baseURL)/legacy/{id}/orders
                """
            try await withGateway(yaml) { client, _ in
                let a = try await client.execute(uri: "/users/a%20b/orders", method: .get)
                #expect(try rawItems(a.text) == [#"{"path":"/legacy/a%20b/orders"}"#])
                let b = try await client.execute(uri: "/users/7/orders", method: .get)
                #expect(try rawItems(b.text) == [#"{"path":"/legacy/7/orders"}"#])
                let dots = try await client.execute(uri: "/users/%2E%2E/orders", method: .get)
                #expect(dots.status == .badRequest)
                let slash = try await client.execute(uri: "/users/a%2Fb/orders", method: .get)
                #expect(slash.status == .badRequest)
                #expect(upstream.requestCount == 2)
            }
        }
    }
}
