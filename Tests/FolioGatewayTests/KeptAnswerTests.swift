import FolioConfiguration
import FolioEngine
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import FolioGateway

/// Answers rendered once per snapshot and request target, then sent again from memory
/// (docs/API.md, "Rendered answers"), with what differs per request added each time.
@Suite("Kept list answers")
struct KeptAnswerTests {
    static let yaml = "cache: { ttl: 60s, staleWhileRevalidate: 0s, staleIfError: 0s }"

    static func snapshot(_ server: FolioServer, upstream: TestUpstream) async throws -> Snapshot {
        let key = try server.gateway.cacheKey(route: "objects", upstreamURL: upstream.baseURL)
        return try #require(await server.gateway.cache.current(key))
    }

    /// The fields that are the same for the same answer (not `Date`, `X-Request-ID`, `Age`,
    /// `Cache-Status`), sorted.
    static func stableFields(_ response: TestResponse) -> [String] {
        let varying: Set<String> = ["date", "x-request-id", "age", "cache-status"]
        return response.headers.filter { !varying.contains($0.name.canonicalName) }
            .map { "\($0.name.canonicalName): \($0.value)" }.sorted()
    }

    @Test func aPageAskedAgainIsSentFromItsKeptAnswer() async throws {
        let clock = TestClock()
        try await withTestUpstream({ _ in .json(objectsBody(50).body) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: Self.yaml), now: clock.now) {
                client, server in
                let first = try await client.execute(uri: "/objects?pageSize=10&offset=20", method: .get)
                #expect(first.status == .ok)
                let snapshot = try await Self.snapshot(server, upstream: upstream)
                #expect(snapshot.rendered.count == 1)
                let kept = snapshot.rendered.retainedBytes
                #expect(kept > first.body.readableBytes)
                #expect(await server.gateway.cache.statistics().bytes == snapshot.retainedBytes)

                clock.advance(.seconds(7))
                let again = try await client.execute(uri: "/objects?pageSize=10&offset=20", method: .get)
                #expect(snapshot.rendered.count == 1, "sent from the kept answer")
                #expect(snapshot.rendered.retainedBytes == kept)
                #expect(Array(buffer: again.body) == Array(buffer: first.body))
                #expect(Self.stableFields(again) == Self.stableFields(first))
                // What differs per request is not kept.
                #expect(again.header("Age") == "7")
                #expect(again.header("Cache-Status") == "folio; hit; ttl=53")
                #expect(again.header("X-Request-ID") != first.header("X-Request-ID"))
                #expect(upstream.requestCount == 1)

                let other = try await client.execute(uri: "/objects?pageSize=10&offset=30", method: .get)
                #expect(Array(buffer: other.body) != Array(buffer: first.body))
                #expect(snapshot.rendered.count == 2)
            }
        }
    }

    @Test func aKeptAnswerStillFollowsTheRequest() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(50).body) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: Self.yaml)) { client, server in
                let uri = "/objects?pageSize=10"
                let get = try await client.execute(uri: uri, method: .get)
                let etag = try #require(get.header("ETag"))

                let head = try await client.execute(uri: uri, method: .head)
                #expect(head.status == .ok)
                #expect(head.body.readableBytes == 0)
                #expect(head.header("Content-Length") == String(get.body.readableBytes))

                let notModified = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: etag])
                #expect(notModified.status == .notModified)
                #expect(notModified.header("ETag") == etag)
                #expect(notModified.header("Link") == get.header("Link"))
                #expect(notModified.header("Content-Type") == nil)
                #expect(notModified.body.readableBytes == 0)

                // A Range header is another answer (206), on the same target.
                let partial = try await client.execute(uri: uri, method: .get, headers: [.range: "items=5-9"])
                #expect(partial.status == .partialContent)
                #expect(partial.header("Content-Range") == "items 5-9/50")
                let whole = try await client.execute(uri: uri, method: .get)
                #expect(whole.status == .ok)
                #expect(Array(buffer: whole.body) == Array(buffer: get.body))

                // CORS follows each request's Origin.
                let cors = try await client.execute(uri: uri, method: .get, headers: [.origin: "https://a.example"])
                #expect(cors.status == .ok)
                #expect(
                    cors.header("Access-Control-Allow-Origin") == nil
                        || cors.header("Access-Control-Allow-Origin") == "https://a.example")
                #expect(try await Self.snapshot(server, upstream: upstream).rendered.count == 2)
            }
        }
    }

    /// The store outlives a reload; a kept answer must not: the new config may render the same
    /// request differently (here: absolute links).
    @Test func aReloadRendersKeptPagesAfresh() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(50).body) }) { upstream in
            let before = gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true, route: Self.yaml)
            let after = gatewayYAML(
                upstream: upstream.baseURL + "/objects", admin: true, server: "publicBaseURL: https://api.example",
                route: Self.yaml)
            _ = try await withFolio(before) { folio in
                let first = try await folio.get("\(folio.client)/objects?pageSize=10")
                let next = try #require(try first.json.paging["next"] as? String)
                #expect(next.hasPrefix("/objects?pageSize=10&offset=10&snapshot="))
                let result = await folio.server.reload(
                    configuration: try ConfigurationLoader.parse(yaml: after, file: "after.yaml"))
                #expect(result.keptRoutes == ["objects"])
                let second = try await folio.get("\(folio.client)/objects?pageSize=10")
                #expect(second.headers.first(name: "Cache-Status")?.hasPrefix("folio; hit") == true)
                #expect(try second.json.paging["next"] as? String == "https://api.example" + next)
                #expect(upstream.requestCount == 1)
            }
        }
    }
}
