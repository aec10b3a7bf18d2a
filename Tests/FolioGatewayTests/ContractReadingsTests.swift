import FolioEngine
import Foundation
import HTTPTypes
import HummingbirdTesting
import Synchronization
import Testing

@testable import FolioGateway

/// Contract misses found from outside (issue 12): pinned links across a refresh, ttl rounding,
/// `no-cache`, crawled freshness, CORS on every route answer, request framing. Time is a
/// `TestClock`; the upstream and the gateway are real.
@Suite struct ContractReadingsTests {
    static let noStale = "cache: { staleWhileRevalidate: 0s, staleIfError: 0s }"

    // MARK: Pinned links across a refresh

    /// The pinned request is the one that finds its list stale and refreshes it: it is answered
    /// from its own snapshot while the refresh it started is still held upstream (issue 39: it
    /// used to wait as long as the refresh); the refresh lands afterwards, unpinned requests get
    /// the new list, and the pinned snapshot is a retained one — not 410.
    @Test func pinnedRequestOnAStaleListDoesNotWaitForTheRefresh() async throws {
        let clock = TestClock()
        let version = Mutex("v1")
        let release = Latch()
        try await withTestUpstream({ _ in
            let tag = version.withLock { $0 }
            if tag == "v2" { await release.wait() }
            return .json(objectsBody(30, tag: tag).body)
        }) { upstream in
            // A gateway that waited for the held refresh would answer 504 at upstreamTimeout.
            let yaml = gatewayYAML(
                upstream: upstream.baseURL, route: "cache: { ttl: 10s, staleWhileRevalidate: 0s, staleIfError: 0s }",
                top: "limits:\n  upstreamTimeout: 5s")
            try await withGateway(yaml, now: clock.now) { client, server in
                let first = try await client.execute(uri: "/objects?pageSize=10", method: .get)
                let oldToken = try #require(first.json.paging["snapshot"] as? String)
                let next = try #require(first.json.paging["next"] as? String)

                version.withLock { $0 = "v2" }
                clock.advance(.seconds(12))
                for _ in 0..<3 {
                    let pinned = try await client.execute(uri: next, method: .get)
                    #expect(pinned.status == .ok, "\(pinned.text)")
                    #expect(try pinned.json.paging["snapshot"] as? String == oldToken)
                    #expect(try rawItems(pinned.text).allSatisfy { $0.contains("\"v1\"") })
                    #expect(pinned.header("Cache-Status") == "folio; hit; ttl=-2")
                }
                try await waitUntil("the pinned request started one refresh") { upstream.headCount == 2 }
                #expect(!release.isOpen && server.gateway.cache.fillsInFlight == 1, "the refresh is still held")

                release.open()
                try await waitUntil("the refresh ended") { server.gateway.cache.fillsInFlight == 0 }
                let unpinned = try await client.execute(uri: "/objects?pageSize=10", method: .get)
                #expect(try rawItems(unpinned.text).allSatisfy { $0.contains("\"v2\"") })
                #expect(unpinned.header("Cache-Status") == "folio; hit; ttl=10")
                let stillPinned = try await client.execute(uri: next, method: .get)
                #expect(try rawItems(stillPinned.text).allSatisfy { $0.contains("\"v1\"") }, "now a retained one")
                #expect(stillPinned.header("Cache-Status") == "folio; hit; ttl=-1")
                #expect(upstream.requestCount == 2)
            }
        }
    }

    /// A pinned token the store never held still gets 410 after the refresh it triggered.
    @Test func unknownTokenOnAStaleListStillGets410AfterTheRefresh() async throws {
        let clock = TestClock()
        try await withTestUpstream({ _ in .json(objectsBody(5).body) }) { upstream in
            let yaml = gatewayYAML(upstream: upstream.baseURL, route: "cache: { ttl: 10s, staleWhileRevalidate: 0s }")
            try await withGateway(yaml, now: clock.now) { client, _ in
                _ = try await client.execute(uri: "/objects", method: .get)
                clock.advance(.seconds(11))
                let gone = try await client.execute(uri: "/objects?snapshot=AAAAAAAAAAAAAAAA", method: .get)
                #expect(gone.status == .gone)
                #expect(upstream.requestCount == 2)
            }
        }
    }

    // MARK: ttl rounding

    /// Stale by less than a second reads `ttl=-1` (and counts as stale), fresh rounds down.
    @Test func staleAnswersNeverReadAsFresh() async throws {
        let clock = TestClock()
        try await withTestUpstream({ _ in .json(objectsBody(5).body, headers: [("Cache-Control", "max-age=10")]) }) {
            upstream in
            let yaml = gatewayYAML(upstream: upstream.baseURL, route: "cache: { staleWhileRevalidate: 30s }")
            try await withGateway(yaml, now: clock.now) { client, _ in
                _ = try await client.execute(uri: "/objects", method: .get)
                clock.advance(.milliseconds(9_500))
                #expect(
                    try await client.execute(uri: "/objects", method: .get).header("Cache-Status")
                        == "folio; hit; ttl=0")
                clock.advance(.milliseconds(700))
                let stale = try await client.execute(uri: "/objects", method: .get)
                #expect(stale.header("Cache-Status") == "folio; hit; ttl=-1")
                #expect(CacheResult(cacheStatus: stale.header("Cache-Status") ?? "") == .stale)
            }
        }
    }

    @Test func ttlRoundsFreshDownAndStaleUp() {
        let start = ContinuousClock.now
        let list = ItemList(bytes: [], starts: [], ends: [])
        let snapshot = Snapshot(
            list: list, token: "t", storedAt: start, freshUntil: start + .seconds(10),
            indexes: SnapshotIndexes(list: list, sectionKey: nil))
        #expect(snapshot.ttl(at: start) == 10)
        #expect(snapshot.ttl(at: start + .milliseconds(100)) == 9)
        #expect(snapshot.ttl(at: start + .milliseconds(9_999)) == 0)
        #expect(snapshot.ttl(at: start + .seconds(10)) == -1)
        #expect(snapshot.ttl(at: start + .milliseconds(10_001)) == -1)
        #expect(snapshot.ttl(at: start + .seconds(12)) == -2)
        #expect(snapshot.ttl(at: start + .milliseconds(12_001)) == -3)
        #expect(!snapshot.isFresh(at: start + .seconds(10)))
    }

    // MARK: Zero freshness

    /// `no-cache`: every use goes upstream (conditionally when there are validators).
    @Test func noCacheListsAreNeverFreshHits() async throws {
        try await withTestUpstream({ request in
            if request.header("If-None-Match") == "\"e1\"" {
                return TestUpstream.Reply(status: 304, headers: [("ETag", "\"e1\"")])
            }
            return .json(objectsBody(5).body, headers: [("Cache-Control", "no-cache"), ("ETag", "\"e1\"")])
        }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL)) { client, _ in
                let statuses = try await (0..<3).asyncMap { _ in
                    try await client.execute(uri: "/objects", method: .get).header("Cache-Status") ?? ""
                }
                #expect(statuses[0] == "folio; fwd=miss; stored")
                #expect(statuses[1] == "folio; fwd=stale; fwd-status=304; ttl=0")
                #expect(statuses[2] == "folio; fwd=stale; fwd-status=304; ttl=0")
                #expect(upstream.requestCount == 3)
                #expect(upstream.requests.dropFirst().allSatisfy { $0.header("If-None-Match") == "\"e1\"" })
            }
        }
        // Without validators every use refetches.
        try await withTestUpstream({ _ in .json(objectsBody(5).body, headers: [("Cache-Control", "no-cache")]) }) {
            upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL)) { client, _ in
                for _ in 0..<3 { _ = try await client.execute(uri: "/objects", method: .get) }
                #expect(upstream.requestCount == 3)
            }
        }
    }

    /// `max-age=0` and a route `ttl: 0s`: stale at once, so never `hit; ttl=0`.
    @Test(arguments: [("max-age=0", ""), ("", "cache: { ttl: 0s }")])
    func zeroLifetimeIsNeverAFreshHit(cacheControl: String, route: String) async throws {
        let headers = cacheControl.isEmpty ? [] : [("Cache-Control", cacheControl)]
        try await withTestUpstream({ _ in .json(objectsBody(5).body, headers: headers) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: route)) { client, _ in
                _ = try await client.execute(uri: "/objects", method: .get)
                let second = try await client.execute(uri: "/objects", method: .get)
                let status = try #require(second.header("Cache-Status"))
                #expect(status != "folio; hit; ttl=0")
                #expect(CacheResult(cacheStatus: status) != .hit, "\(status)")
            }
        }
    }

    // MARK: Crawled freshness

    /// A crawled list is as fresh as its shortest-lived page.
    @Test func crawledListIsAsFreshAsItsShortestPage() async throws {
        let clock = TestClock()
        let paged = PagedUpstream(count: 140, cap: 10, style: .linkHeader)
        try await withTestUpstream({ request in
            var reply = paged.reply(request)
            let maxAge = paged.pageIndex(request) == 4 ? 1 : 600
            reply.headers.append(("Cache-Control", "max-age=\(maxAge)"))
            return reply
        }) { upstream in
            let yaml = gatewayYAML(
                upstream: upstream.baseURL + "/items", route: paged.routeKeys() + "\n" + Self.noStale)
            try await withGateway(yaml, now: clock.now) { client, _ in
                let first = try await client.execute(uri: "/objects", method: .get)
                #expect(try first.json.paging["totalCount"] as? Int == 140)
                #expect(upstream.requestCount == 14)
                #expect(
                    try await client.execute(uri: "/objects", method: .get).header("Cache-Status")
                        == "folio; hit; ttl=1")
                clock.advance(.milliseconds(1_500))
                let again = try await client.execute(uri: "/objects", method: .get)
                #expect(again.header("Cache-Status") == "folio; fwd=stale; fwd-status=200; stored")
                #expect(upstream.requestCount == 28)
            }
        }
    }

    @Test func crawledFreshnessCombinesPages() {
        let long = Freshness(
            storable: true, lifetime: .seconds(600), mustRevalidate: false, etag: "a", lastModified: nil)
        let short = Freshness(storable: true, lifetime: .seconds(1), mustRevalidate: true, etag: nil, lastModified: "x")
        let uncacheable = Freshness(storable: false, lifetime: .zero, mustRevalidate: false, reason: "private")
        let combined = long.crawled(with: short)
        #expect(combined.lifetime == .seconds(1))
        #expect(combined.mustRevalidate)
        #expect(combined.etag == nil && combined.lastModified == nil)
        #expect(!combined.crawled(with: uncacheable).storable)
        #expect(combined.crawled(with: uncacheable).reason == "private")
    }

    // MARK: CORS on every route answer

    @Test func everyRouteAnswerExposesHeadersAndVariesOnOrigin() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(5).body) }) { upstream in
            let yaml = gatewayYAML(
                upstream: upstream.baseURL,
                top: "  cors: { allowOrigins: [\"https://app.example\"] }")
            try await withGateway(yaml) { client, _ in
                let page = try await client.execute(uri: "/objects", method: .get)
                let etag = try #require(page.header("ETag"))
                let answers = [
                    ("page without Origin", page),
                    ("304", try await client.execute(uri: "/objects", method: .get, headers: [.ifNoneMatch: etag])),
                    ("410", try await client.execute(uri: "/objects?snapshot=AAAAAAAAAAAAAAAA", method: .get)),
                    ("416", try await client.execute(uri: "/objects", method: .get, headers: [.range: "items=50-60"])),
                    ("400", try await client.execute(uri: "/objects?pageSize=abc", method: .get)),
                    // Refused before the route's own checks, still answers of the route.
                    (
                        "414",
                        try await client.execute(uri: "/objects?x=" + String(repeating: "a", count: 8500), method: .get)
                    ),
                    ("431", try await client.execute(uri: "/objects", method: .get, headers: Self.fields(120))),
                    (
                        "other origin",
                        try await client.execute(
                            uri: "/objects", method: .get, headers: [.origin: "https://evil.example"])
                    ),
                ]
                for (name, answer) in answers {
                    #expect(answer.header("Access-Control-Expose-Headers") == CORSRules.exposed, "\(name)")
                    #expect(answer.header("Vary")?.contains("Origin") == true, "\(name)")
                    #expect(answer.header("Access-Control-Allow-Origin") == nil, "\(name)")
                }
                #expect(answers[1].1.status == .notModified)
                #expect(answers[2].1.status == .gone)
                #expect(answers[3].1.status == .rangeNotSatisfiable)
                #expect(answers[5].1.status == .uriTooLong)
                #expect(answers[6].1.status == .requestHeaderFieldsTooLarge)
                let allowed = try await client.execute(
                    uri: "/objects", method: .get, headers: [.origin: "https://app.example"])
                #expect(allowed.header("Access-Control-Allow-Origin") == "https://app.example")
                // A list answer also varies on Accept-Encoding (compression); Origin once.
                let vary = (allowed.header("Vary") ?? "").split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                #expect(vary.filter { $0 == "Origin" }.count == 1)
                #expect(vary.contains("Accept-Encoding"))
            }
        }
    }

    /// `count` header fields named `X-Field-N`.
    static func fields(_ count: Int) -> HTTPFields {
        HTTPFields((0..<count).map { HTTPField(name: HTTPField.Name("X-Field-\($0)")!, value: "v") })
    }

    /// A refused placeholder value (400) is an answer of the route whose pattern matched; a
    /// path that no route matches is not a route answer.
    @Test func aRefusedPathParameterIsARouteAnswer() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(5).body) }) { upstream in
            let yaml = gatewayYAML(
                upstream: upstream.baseURL + "/{id}", top: "  cors: { allowOrigins: [\"https://app.example\"] }",
                path: "/objects/{id}")
            try await withGateway(yaml) { client, _ in
                let refused = try await client.execute(
                    uri: "/objects/a%2Fb", method: .get, headers: [.origin: "https://app.example"])
                try checkProblem(refused, status: 400, code: "invalid-path-parameter")
                #expect(refused.header("Access-Control-Expose-Headers") == CORSRules.exposed)
                #expect(refused.header("Access-Control-Allow-Origin") == "https://app.example")
                #expect(refused.header("Vary")?.contains("Origin") == true)
                let undecodable = try await client.execute(uri: "/objects/%zz", method: .get)
                try checkProblem(undecodable, status: 400)
                #expect(undecodable.header("Access-Control-Expose-Headers") == nil, "no route matched it")
                #expect(upstream.requestCount == 0)
            }
        }
    }

    @Test func wildcardOriginsDoNotVary() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(5).body) }) { upstream in
            let yaml = gatewayYAML(upstream: upstream.baseURL, top: "  cors: { allowOrigins: [\"*\"] }")
            try await withGateway(yaml) { client, _ in
                let gone = try await client.execute(uri: "/objects?snapshot=AAAAAAAAAAAAAAAA", method: .get)
                #expect(gone.header("Access-Control-Expose-Headers") == CORSRules.exposed)
                #expect(gone.header("Vary") == nil)
                // A kept page (the second is answered at once) gains the fields after its own.
                for _ in 0..<2 {
                    let page = try await client.execute(
                        uri: "/objects", method: .get, headers: [.origin: "https://app.example"])
                    #expect(page.status == .ok)
                    #expect(page.header("Access-Control-Allow-Origin") == "*")
                    #expect(page.header("Access-Control-Expose-Headers") == CORSRules.exposed)
                    #expect(page.header("Vary") == "Accept-Encoding")
                }
                // A path that matches no route is not a route answer.
                let none = try await client.execute(uri: "/elsewhere", method: .get)
                #expect(none.status == .notFound)
                #expect(none.header("Access-Control-Expose-Headers") == nil)
            }
        }
    }

    // MARK: validate

    /// `ok: 1 routes` keeps the plural, for scripts that parse the line (docs/CONFIG.md, "Grammar and validation"), and
    /// goes to stdout with nothing on stderr.
    @Test(arguments: [1, 2])
    func validateSaysOkWithThePluralWhateverTheCount(_ routes: Int) throws {
        let second = "\n  - name: more\n    path: /more\n    upstream: http://legacy:3000/api/more"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ok-\(UUID().uuidString).yaml")
        try (ConfigFixture.minimal + (routes == 2 ? second : "")).write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, errors, output) = try FolioProcess.validate(file)
        #expect(status == 0 && errors.isEmpty, "\(errors)")
        #expect(output == "ok: \(routes) routes\n")
    }

    // MARK: Framing

    @Test(arguments: [
        "GET /objects HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
        "POST /objects HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: identity, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
        "POST /objects HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
    ])
    func ambiguousFramingIs400AndNeverForwarded(_ request: String) async throws {
        try await withTestUpstream({ _ in .json(objectsBody(5).body) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL)) { client, _ in
                let connection = try await RawConnection.open(port: try #require(client.port))
                try await connection.send(request)
                #expect(await connection.waitFor("\r\n\r\n"), "\(connection.received)")
                #expect(connection.received.hasPrefix("HTTP/1.1 400"), "\(connection.received)")
                #expect(upstream.requestCount == 0)
                await connection.close()
            }
        }
    }

    /// RFC 9112 3.2: an HTTP/1.1 request without `Host` is a 400 (an HTTP/1.0 one is fine), and
    /// the mark that says so cannot be sent by a client.
    @Test(arguments: [
        ("GET /objects HTTP/1.1\r\n\r\n", "400"), ("POST /objects HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}", "400"),
        ("GET /objects HTTP/1.0\r\n\r\n", "200"),
        (
            "GET /objects HTTP/1.1\r\nHost: a\r\nFolio-Internal-Framing: missing-host\r\nConnection: close\r\n\r\n",
            "200"
        ),
        // Forwarded with its end-to-end fields: the upstream must not see the mark either.
        (
            "POST /objects HTTP/1.1\r\nHost: a\r\nfolio-internal-framing: missing-host\r\nContent-Length: 2\r\n\r\n{}",
            "200"
        ),
        ("GET /objects HTTP/2.0\r\n\r\n", "400"),
    ])
    func anHTTP11RequestWithoutHostIs400(_ request: String, _ status: String) async throws {
        try await withTestUpstream({ request in
            #expect(request.headers.allSatisfy { $0.name.lowercased() != "folio-internal-framing" })
            return .json(objectsBody(5).body)
        }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL)) { client, _ in
                let connection = try await RawConnection.open(port: try #require(client.port))
                try await connection.send(request)
                #expect(await connection.waitFor("\r\n\r\n"), "\(connection.received)")
                #expect(connection.received.hasPrefix("HTTP/1.1 \(status)"), "\(connection.received)")
                if status == "400" { #expect(upstream.requestCount == 0) }
                await connection.close()
            }
        }
    }

    /// A kept page is answered without the responder; a request without `Host` still is not.
    @Test func aKeptPageIsNotServedToAnHTTP11RequestWithoutHost() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(5).body) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL)) { client, _ in
                let connection = try await RawConnection.open(port: try #require(client.port))
                for _ in 0..<2 { try await connection.send("GET /objects HTTP/1.1\r\nHost: a\r\n\r\n") }
                #expect(await connection.waitFor("HTTP/1.1 200 OK"), "\(connection.received)")
                try await Task.sleep(for: .milliseconds(100))
                await connection.close()
                let bare = try await RawConnection.open(port: try #require(client.port))
                try await bare.send("GET /objects HTTP/1.1\r\n\r\n")
                #expect(await bare.waitFor("\r\n\r\n"), "\(bare.received)")
                #expect(bare.received.hasPrefix("HTTP/1.1 400"), "\(bare.received)")
                #expect(upstream.requestCount == 1)
                await bare.close()
            }
        }
    }

    @Test func plainChunkedBodiesAreStillForwarded() async throws {
        try await withTestUpstream({ _ in .json(#"{"ok":1}"#) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL)) { client, _ in
                let connection = try await RawConnection.open(port: try #require(client.port))
                try await connection.send(
                    "POST /objects HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n")
                #expect(await connection.waitFor("{\"ok\":1}"), "\(connection.received)")
                #expect(upstream.requestCount == 1)
                await connection.close()
            }
        }
    }
}

extension Sequence {
    /// `map` with an async transform, in order.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
