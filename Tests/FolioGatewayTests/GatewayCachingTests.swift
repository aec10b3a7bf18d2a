import AsyncHTTPClient
import FolioConfiguration
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

@testable import FolioGateway

/// Freshness, revalidation, stale serving, coalescing, credentials, memory bound (docs/CACHING.md,
/// the sections of each; docs/API.md, "Cache-Status").
/// Time is a `TestClock`, so nothing here sleeps to let a list expire.
@Suite struct GatewayCachingTests {
    static let noStale = "cache: { ttl: 60s, staleWhileRevalidate: 0s, staleIfError: 0s }"

    static func reply(_ headers: [(String, String)], count: Int = 5, tag: String = "v1") -> TestUpstream.Reply {
        .json(objectsBody(count, tag: tag).body, headers: headers)
    }

    @Test func maxAgeIsReusedUntilItExpiresWithAge() async throws {
        let clock = TestClock()
        try await withTestUpstream({ _ in Self.reply([("Cache-Control", "max-age=100")]) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: Self.noStale), now: clock.now) {
                client, _ in
                let first = try await client.execute(uri: "/objects", method: .get)
                #expect(first.header("Cache-Status") == "folio; fwd=miss; stored")
                clock.advance(.seconds(30))
                let hit = try await client.execute(uri: "/objects", method: .get)
                #expect(hit.header("Cache-Status") == "folio; hit; ttl=70")
                #expect(hit.header("Age") == "30")
                clock.advance(.seconds(71))
                let expired = try await client.execute(uri: "/objects", method: .get)
                #expect(expired.header("Cache-Status") == "folio; fwd=stale; fwd-status=200; stored")
                #expect(upstream.requestCount == 2)
            }
        }
    }

    /// `Age` counts the upstream's own `Age` too (RFC 9111 4.2.3), as the freshness does: on a
    /// hit, and on a stale answer (here to an upstream error, with the upstream failing).
    @Test(
        arguments: [
            (40, GatewayCachingTests.noStale, 30, false, "folio; hit; ttl=30", "70"),
            (
                90, "cache: { staleWhileRevalidate: 0s, staleIfError: 60s }", 20, true,
                "folio; fwd=stale; fwd-status=503; ttl=-10", "110"
            ),
        ] as [(Int, String, Int, Bool, String, String)])
    func ageAddsTheUpstreamsAge(
        _ upstreamAge: Int, route: String, later: Int, failing failsLater: Bool, status: String, age: String
    ) async throws {
        let clock = TestClock()
        let failing = Mutex(false)
        try await withTestUpstream({ _ in
            failing.withLock { $0 }
                ? .json("down", status: 503)
                : Self.reply([("Cache-Control", "max-age=100"), ("Age", "\(upstreamAge)")])
        }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: route), now: clock.now) { client, _ in
                let first = try await client.execute(uri: "/objects", method: .get)
                #expect(first.header("Age") == nil, "a miss is not answered from the cache")
                failing.withLock { $0 = failsLater }
                clock.advance(.seconds(later))
                let answer = try await client.execute(uri: "/objects", method: .get)
                #expect(answer.header("Cache-Status") == status)
                #expect(answer.header("Age") == age)
            }
        }
    }

    /// An `Age` beyond any real one is read as RFC 9111 caps delta-seconds (2^31), so adding
    /// time to it cannot overflow.
    @Test func aHugeUpstreamAgeIsCapped() async throws {
        // The test's clock: no second may pass between the fill and the answer on a slow machine.
        let clock = TestClock()
        try await withTestUpstream({ _ in
            Self.reply([("Cache-Control", "max-age=100"), ("Age", "9223372036854775807")])
        }) { upstream in
            let route = "cache: { staleWhileRevalidate: 60s, staleIfError: 60s }"
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: route), now: clock.now) { client, _ in
                _ = try await client.execute(uri: "/objects", method: .get)
                let stale = try await client.execute(uri: "/objects", method: .get)
                #expect(stale.status == .ok)
                #expect(stale.header("Age") == "2147483648")
            }
        }
    }

    @Test func sMaxAgeWinsOverMaxAgeAndTTLIsTheFallback() async throws {
        let clock = TestClock()
        try await withTestUpstream({ request in
            request.path == "/plain" ? Self.reply([]) : Self.reply([("Cache-Control", "max-age=10, s-maxage=200")])
        }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: Self.noStale), now: clock.now) {
                client, _ in
                _ = try await client.execute(uri: "/objects", method: .get)
                clock.advance(.seconds(100))
                #expect(
                    try await client.execute(uri: "/objects", method: .get).header("Cache-Status")
                        == "folio; hit; ttl=100")
            }
            try await withGateway(
                gatewayYAML(upstream: upstream.baseURL + "/plain", route: Self.noStale), now: clock.now
            ) { client, _ in
                _ = try await client.execute(uri: "/objects", method: .get)
                clock.advance(.seconds(45))
                #expect(
                    try await client.execute(uri: "/objects", method: .get).header("Cache-Status")
                        == "folio; hit; ttl=15")
            }
        }
    }

    /// With stale serving allowed by the route, a `max-age` list past its lifetime is served
    /// stale while it refreshes; an `s-maxage` one never is (it implies `proxy-revalidate`).
    @Test(arguments: [
        ("max-age=10", "folio; hit; ttl=-1"), ("s-maxage=10", "folio; fwd=stale; fwd-status=200; stored"),
    ])
    func sMaxAgeIsNeverServedStale(_ directive: String, _ status: String) async throws {
        let clock = TestClock()
        try await withTestUpstream({ _ in Self.reply([("Cache-Control", directive)]) }) { upstream in
            let route = "cache: { staleWhileRevalidate: 60s, staleIfError: 60s }"
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: route), now: clock.now) { client, _ in
                _ = try await client.execute(uri: "/objects", method: .get)
                clock.advance(.seconds(11))
                let next = try await client.execute(uri: "/objects", method: .get)
                #expect(next.status == .ok)
                #expect(next.header("Cache-Status") == status)
            }
        }
    }

    /// Invalid directives, and a lifetime given twice with different values, in one header
    /// line or two (RFC 9111 4.2.1).
    @Test(arguments: [
        ["max-age=abc"], ["max-age=-5"], ["s-maxage=1.5"], ["max-age=10, max-age=30"], ["max-age=10", "max-age=30"],
    ])
    func invalidDirectivesAreNotFresh(_ lines: [String]) async throws {
        try await withTestUpstream({ _ in Self.reply(lines.map { ("Cache-Control", $0) }) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: Self.noStale)) { client, _ in
                _ = try await client.execute(uri: "/objects", method: .get)
                let second = try await client.execute(uri: "/objects", method: .get)
                #expect(second.header("Cache-Status") == "folio; fwd=stale; fwd-status=200; stored")
                #expect(upstream.requestCount == 2)
            }
        }
    }

    @Test(arguments: [
        ("Cache-Control", "no-store"), ("Cache-Control", "private"), ("Set-Cookie", "a=1"), ("Vary", "*"),
    ])
    func uncacheableAnswersAreNeverStored(_ header: (String, String)) async throws {
        try await withTestUpstream({ _ in Self.reply([header]) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: Self.noStale)) { client, _ in
                for _ in 0..<3 {
                    let response = try await client.execute(uri: "/objects", method: .get)
                    #expect(response.status == .ok)
                    #expect(response.header("Cache-Status") == "folio; fwd=uri-miss")
                    #expect(try response.json.paging["snapshot"] is String, "uncached answers still carry a token")
                }
                #expect(upstream.requestCount == 3)
            }
        }
    }

    @Test func noCacheIsStoredButRevalidatedEveryTime() async throws {
        try await withTestUpstream({ request in
            if request.header("If-None-Match") == "\"v1\"" {
                return TestUpstream.Reply(status: 304, headers: [("ETag", "\"v1\"")])
            }
            return Self.reply([("Cache-Control", "no-cache"), ("ETag", "\"v1\"")])
        }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: Self.noStale)) { client, _ in
                _ = try await client.execute(uri: "/objects", method: .get)
                let again = try await client.execute(uri: "/objects", method: .get)
                #expect(again.header("Cache-Status")?.hasPrefix("folio; fwd=stale; fwd-status=304; ttl=") == true)
                #expect(upstream.requestCount == 2)
            }
        }
    }

    @Test func staleListsAreRevalidatedWith304KeepingTheToken() async throws {
        let clock = TestClock()
        try await withTestUpstream({ request in
            if request.header("If-None-Match") == "\"v1\"" {
                return TestUpstream.Reply(status: 304, headers: [("ETag", "\"v1\""), ("Cache-Control", "max-age=50")])
            }
            return Self.reply([
                ("Cache-Control", "max-age=10"), ("ETag", "\"v1\""), ("Last-Modified", "Sat, 21 Nov 2026 10:00:00 GMT"),
            ])
        }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: Self.noStale), now: clock.now) {
                client, _ in
                let first = try await client.execute(uri: "/objects", method: .get)
                let token = try first.json.paging["snapshot"] as? String
                clock.advance(.seconds(20))
                let revalidated = try await client.execute(uri: "/objects", method: .get)
                #expect(revalidated.header("Cache-Status") == "folio; fwd=stale; fwd-status=304; ttl=50")
                #expect(try revalidated.json.paging["snapshot"] as? String == token)
                let conditional = try #require(upstream.requests.last)
                #expect(conditional.header("If-None-Match") == "\"v1\"")
                #expect(conditional.header("If-Modified-Since") == "Sat, 21 Nov 2026 10:00:00 GMT")
                clock.advance(.seconds(10))
                #expect(
                    try await client.execute(uri: "/objects", method: .get).header("Cache-Status")
                        == "folio; hit; ttl=40")
            }
        }
    }

    /// A 304 whose fields forbid storing confirms the stored list for its own requests only: it
    /// is served as revalidated for no time (`ttl=0`) and the stored list is not renewed, so its
    /// stale-if-error window still counts from its own expiry.
    @Test(arguments: [("Cache-Control", "no-store"), ("Set-Cookie", "session=1")])
    func aNotStorable304IsServedButNotInstalled(_ field: (String, String)) async throws {
        let clock = TestClock()
        let failing = Mutex(false)
        try await withTestUpstream({ request in
            if failing.withLock({ $0 }) { return TestUpstream.Reply(status: 500) }
            if request.header("If-None-Match") == "\"v1\"" {
                // Slow enough for the other requests to join the revalidation, even with the
                // whole suite in parallel on two cores (300 ms once was not, in CI).
                return TestUpstream.Reply(
                    status: 304, headers: [("ETag", "\"v1\""), field], delay: .milliseconds(1500))
            }
            return Self.reply([("Cache-Control", "max-age=10"), ("ETag", "\"v1\"")])
        }) { upstream in
            let route = "cache: { staleWhileRevalidate: 0s, staleIfError: 15s }"
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: route), now: clock.now) { client, _ in
                let first = try await client.execute(uri: "/objects", method: .get)
                clock.advance(.seconds(20))
                // Three at once: the requests that joined the revalidation share its answer,
                // and nobody fetches the whole list again.
                let url = "http://127.0.0.1:\(try #require(client.port))/objects"
                let answers = try await withHTTPClient { http in
                    try await withThrowingTaskGroup(of: HTTPAnswer.self) { group in
                        for _ in 0..<3 { group.addTask { try await http.answer(url) } }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                }
                let statuses = answers.compactMap { $0.headers["Cache-Status"].first }
                #expect(statuses.filter { $0 == "folio; fwd=miss; collapsed" }.count == 2, "\(statuses)")
                #expect(statuses.filter { $0 == "folio; fwd=stale; fwd-status=304; ttl=0" }.count == 1)
                for answer in answers {
                    #expect(answer.status == 200)
                    #expect(try rawItems(answer.text) == rawItems(String(buffer: first.body)))
                }
                #expect(upstream.requestCount == 2, "one fetch, one revalidation")
                #expect(upstream.requests.last?.header("If-None-Match") == "\"v1\"")
                // Stored at 0, fresh until 10, servable on error until 25: at 30 the error
                // passes, where a renewal at 20 would have served the list stale until 35.
                clock.advance(.seconds(10))
                failing.withLock { $0 = true }
                let failed = try await client.execute(uri: "/objects", method: .get)
                #expect(failed.status == .internalServerError)
            }
        }
    }

    /// A burst of misses for distinct lists (one per path value) all reach the upstream at
    /// once: none waits for a pooled connection behind slow fills and times out before it was
    /// ever sent (a pool of 8 per host once answered 16 of these 24 with 502 after
    /// `connectTimeout`). The upstream holds every answer until all 24 are in (at most 5 s), so
    /// with a smaller pool the requests left waiting time out first: `connectTimeout` is 3 s,
    /// not 1 s, so that a loopback connect the loaded 2-core CI machine delays past a second
    /// (the suite runs bomb and memory tests beside it) is not mistaken for that.
    @Test func aBurstOfDistinctFillsAllReachTheUpstream() async throws {
        let burst = 24
        let arrived = Mutex(0)
        try await withTestUpstream({ _ in
            arrived.withLock { $0 += 1 }
            // The deadline only ends a failing run.
            let deadline = ContinuousClock.now + .seconds(5)
            while arrived.withLock({ $0 }) < burst, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(5))
            }
            return .json(objectsBody(3).body)
        }) { upstream in
            let yaml = gatewayYAML(
                upstream: upstream.baseURL + "/list/{id}", top: "limits:\n  connectTimeout: 3s", path: "/lists/{id}")
            try await withGateway(yaml) { client, _ in
                let base = "http://127.0.0.1:\(try #require(client.port))/lists/"
                let statuses = try await withHTTPClient(connectionsPerHost: burst) { http in
                    try await withThrowingTaskGroup(of: Int.self) { group in
                        for id in 0..<burst { group.addTask { try await http.answer(base + "l\(id)").status } }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                }
                #expect(statuses == Array(repeating: 200, count: burst), "\(statuses)")
                #expect(upstream.requestCount == burst)
            }
        }
    }

    @Test func staleWhileRevalidateServesAtOnceAndRefreshesOnce() async throws {
        let clock = TestClock()
        let version = Mutex("v1")
        try await withTestUpstream({ _ in
            let tag = version.withLock { $0 }
            var reply = Self.reply([("Cache-Control", "max-age=10")], tag: tag)
            // The refresh answers slowly, so the stale answers below are served meanwhile (even
            // when a loaded machine takes a second or two for them).
            if tag == "v2" { reply.delay = .seconds(3) }
            return reply
        }) { upstream in
            let yaml = gatewayYAML(
                upstream: upstream.baseURL, route: "cache: { staleWhileRevalidate: 30s, staleIfError: 0s }")
            try await withGateway(yaml, now: clock.now) { client, _ in
                _ = try await client.execute(uri: "/objects", method: .get)
                version.withLock { $0 = "v2" }
                clock.advance(.seconds(15))
                for _ in 0..<5 {
                    let stale = try await client.execute(uri: "/objects", method: .get)
                    #expect(stale.header("Cache-Status") == "folio; hit; ttl=-5")
                    #expect(try rawItems(stale.text).allSatisfy { $0.contains("\"v1\"") })
                }
                #expect(await eventually { upstream.requestCount == 2 }, "one background refresh")
                let deadline = ContinuousClock.now + .seconds(10)
                var fresh = false
                while !fresh, ContinuousClock.now < deadline {
                    let response = try await client.execute(uri: "/objects", method: .get)
                    fresh = try rawItems(response.text).allSatisfy { $0.contains("\"v2\"") }
                    if !fresh { try await Task.sleep(for: .milliseconds(50)) }
                }
                #expect(fresh, "the refreshed list replaces the stale one")
                #expect(upstream.requestCount == 2)
            }
        }
    }

    @Test(arguments: ["status", "timeout", "badBody"])
    func staleIfErrorThenTheErrorAfterTheWindow(_ fault: String) async throws {
        let clock = TestClock()
        let failing = Mutex(false)
        try await withTestUpstream({ _ in
            guard failing.withLock({ $0 }) else { return Self.reply([("Cache-Control", "max-age=10")]) }
            switch fault {
            case "status": return .json("down", status: 503)
            case "timeout":
                var reply = Self.reply([])
                reply.delay = .seconds(12)
                return reply
            default: return .json("[1,2,")
            }
        }) { upstream in
            let yaml = gatewayYAML(
                upstream: upstream.baseURL, route: "cache: { staleWhileRevalidate: 0s, staleIfError: 60s }",
                // Room for the good fill on a loaded test machine; the slow answer never comes in time.
                top: "limits:\n  upstreamTimeout: 5s")
            let expectedStatus = ["status": 503, "timeout": 504, "badBody": 502][fault]!
            try await withGateway(yaml, now: clock.now) { client, _ in
                let good = try await client.execute(uri: "/objects", method: .get)
                try #require(good.status == .ok)
                let token = try good.json.paging["snapshot"] as? String
                failing.withLock { $0 = true }
                clock.advance(.seconds(40))
                let stale = try await client.execute(uri: "/objects", method: .get)
                #expect(stale.status == .ok)
                #expect(try stale.json.paging["snapshot"] as? String == token)
                #expect(stale.header("Cache-Status") == "folio; fwd=stale; fwd-status=\(expectedStatus); ttl=-30")
                clock.advance(.seconds(40))
                let error = try await client.execute(uri: "/objects", method: .get)
                #expect(Int(error.status.code) == expectedStatus)
                #expect(error.header("Cache-Status") == "folio; fwd=miss; fwd-status=\(expectedStatus)")
            }
        }
    }

    @Test func hundredConcurrentColdRequestsMakeOneFetch() async throws {
        try await withTestUpstream({ _ in
            var reply = Self.reply([], count: 200)
            reply.delay = .milliseconds(300)
            return reply
        }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL)) { client, _ in
                let statuses = try await concurrentGets(client, (0..<100).map { "/objects?offset=\($0)" }).map(
                    \.cacheStatus)
                #expect(upstream.requestCount == 1)
                #expect(statuses.count(where: { $0 == "folio; fwd=miss; stored" }) == 1)
                #expect(
                    statuses.count(where: { $0 == "folio; fwd=miss; collapsed" || $0?.hasPrefix("folio; hit") == true })
                        == 99)
            }
        }
    }

    @Test func aFailingLeaderDoesNotSendItsWaitersUpstream() async throws {
        try await withTestUpstream({ _ in
            var reply = TestUpstream.Reply.json("boom", status: 500)
            reply.delay = .seconds(1)
            return reply
        }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL)) { client, _ in
                let answers = try await concurrentGets(client, Array(repeating: "/objects", count: 20))
                #expect(answers.allSatisfy { $0.status == 500 })
                #expect(answers.count(where: { $0.cacheStatus == "folio; fwd=miss; fwd-status=500" }) == 20)
                // All 20 arrive while the one-second fill runs and share its failure.
                #expect(upstream.requestCount == 1)
            }
        }
    }

    @Test func perCredentialPartitionsAndSharedRoutes() async throws {
        try await withTestUpstream({ request in
            .json(#"[{"owner":"\#(request.header("Authorization") ?? "anonymous")"}]"#)
        }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: "authorized: perCredential")) {
                client, _ in
                for user in ["alice", "bob", "alice", "bob"] {
                    let response = try await client.execute(
                        uri: "/objects", method: .get, headers: [.authorization: user])
                    #expect(try rawItems(response.text) == [#"{"owner":"\#(user)"}"#])
                }
                let anonymous = try await client.execute(uri: "/objects", method: .get)
                #expect(try rawItems(anonymous.text) == [#"{"owner":"anonymous"}"#])
                #expect(upstream.requestCount == 3, "one fill per partition")
            }
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: "authorized: shared")) { client, _ in
                let before = upstream.requestCount
                _ = try await client.execute(uri: "/objects", method: .get, headers: [.authorization: "alice"])
                let bob = try await client.execute(uri: "/objects", method: .get, headers: [.authorization: "bob"])
                #expect(try rawItems(bob.text) == [#"{"owner":"alice"}"#], "shared: one list for everyone")
                #expect(upstream.requestCount == before + 1)
            }
        }
    }

    @Test func smallMaxBytesEvictsLeastRecentlyUsedLists() async throws {
        try await withTestUpstream({ request in .json(objectsBody(100, tag: request.path).body) }) { upstream in
            let yaml = listsYAML(upstream: upstream.baseURL, maxBytes: "40KiB")
            try await withGateway(yaml) { client, server in
                for id in 0..<20 {
                    let response = try await client.execute(uri: "/lists/\(id)", method: .get)
                    #expect(response.status == .ok)
                }
                let stats = await server.gateway.cache.statistics()
                #expect(stats.bytes <= 40 * 1024)
                #expect(stats.evictions > 0)
                #expect(stats.snapshots < 20)
                let before = upstream.requestCount
                _ = try await client.execute(uri: "/lists/0", method: .get)
                #expect(upstream.requestCount == before + 1, "the oldest list was evicted and is fetched again")
                _ = try await client.execute(uri: "/lists/0", method: .get)
                #expect(upstream.requestCount == before + 1)
            }
        }
    }

    @Test func aListLargerThanTheCacheIsServedButNotStored() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(500).body) }) { upstream in
            let yaml = gatewayYAML(upstream: upstream.baseURL, top: "cache:\n  maxBytes: 1KiB")
            try await withGateway(yaml) { client, server in
                for _ in 0..<2 {
                    let response = try await client.execute(uri: "/objects", method: .get)
                    #expect(try response.json.paging["totalCount"] as? Int == 500)
                    #expect(response.header("Cache-Status") == "folio; fwd=uri-miss")
                }
                #expect(upstream.requestCount == 2)
                #expect(await server.gateway.cache.statistics().bytes == 0)
            }
        }
    }

    @Test func purgeDropsTheRouteAndPinnedLinksKeepWorking() async throws {
        let version = Mutex("v1")
        try await withTestUpstream({ _ in .json(objectsBody(5, tag: version.withLock { $0 }).body) }) { upstream in
            let adminPort = Mutex<Int?>(nil)
            let yaml = gatewayYAML(upstream: upstream.baseURL).replacingOccurrences(
                of: "admin: null", with: "admin: 127.0.0.1:0")
            let configuration = try ConfigurationLoader.parse(yaml: yaml, file: "test.yaml")
            let server = try buildApplication(
                configuration: configuration, logger: .init(label: "test"),
                onAdminListening: { port in adminPort.withLock { $0 = port } })
            try await server.application.test(.live) { client in
                let first = try await client.execute(uri: "/objects", method: .get)
                let token = try #require(try first.json.paging["snapshot"] as? String)
                #expect(await eventually { adminPort.withLock { $0 } != nil })
                let port = try #require(adminPort.withLock { $0 })
                version.withLock { $0 = "v2" }
                var purge = HTTPClientRequest(url: "http://127.0.0.1:\(port)/purge?route=objects")
                purge.method = .POST
                let purged = try await HTTPClient.shared.execute(purge, timeout: .seconds(5))
                #expect(purged.status == .noContent)
                var unknown = HTTPClientRequest(url: "http://127.0.0.1:\(port)/purge?route=nope")
                unknown.method = .POST
                #expect(try await HTTPClient.shared.execute(unknown, timeout: .seconds(5)).status == .badRequest)
                let after = try await client.execute(uri: "/objects", method: .get)
                #expect(try rawItems(after.text).allSatisfy { $0.contains("\"v2\"") })
                let pinned = try await client.execute(uri: "/objects?snapshot=\(token)", method: .get)
                #expect(try rawItems(pinned.text).allSatisfy { $0.contains("\"v1\"") })
            }
        }
    }

    /// A route's `vary` headers select its list, so every list answer names them in `Vary`
    /// for caches downstream: a miss, a hit given at once, a `304` and a section index.
    @Test func listAnswersNameTheRoutesVaryHeaders() async throws {
        try await withTestUpstream({ request in Self.reply([], tag: request.header("X-Tenant") ?? "none") }) {
            upstream in
            try await withGateway(
                gatewayYAML(upstream: upstream.baseURL, route: "vary: [X-Tenant]\nsectionKey: name")
            ) { client, _ in
                let tenant: HTTPFields = [HTTPField.Name("X-Tenant")!: "a"]
                let miss = try await client.execute(uri: "/objects", method: .get, headers: tenant)
                let hit = try await client.execute(uri: "/objects", method: .get, headers: tenant)
                #expect(hit.header("Cache-Status")?.hasPrefix("folio; hit") == true)
                var conditional = tenant
                conditional[.ifNoneMatch] = try #require(hit.header("ETag"))
                let notModified = try await client.execute(uri: "/objects", method: .get, headers: conditional)
                #expect(notModified.status == .notModified)
                let sections = try await client.execute(
                    uri: "/objects?groupBy=alphabetical&metadataOnly", method: .get, headers: tenant)
                for answer in [miss, hit, notModified, sections] {
                    #expect(answer.header("Vary") == "X-Tenant, Accept-Encoding", "\(answer.status)")
                }
            }
        }
    }

    /// Read after write (docs/CACHING.md, "Invalidation"): a request made after an unsafe method's 2xx starts a fill
    /// of its own, never joining one that began before the drop; the earlier fill still answers
    /// the request that started it, but is not stored.
    @Test func aRequestAfterADropNeverJoinsAFillThatBeganBeforeIt() async throws {
        let version = Mutex("v1")
        let answered = Mutex<[String]>([])
        try await withTestUpstream({ request in
            if request.method == "POST" { return .json("{}") }
            let tag = version.withLock { $0 }
            answered.withLock { $0.append(tag) }
            var reply = Self.reply([], tag: tag)
            reply.delay = .milliseconds(1_500)
            return reply
        }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: Self.noStale)) { client, _ in
                let url = "http://127.0.0.1:\(try #require(client.port))/objects"
                try await withHTTPClient { http in
                    async let before = http.answer(url)
                    // The first fill has its answer from the upstream (sent after 1.5 s).
                    #expect(await eventually { answered.withLock { $0 } == ["v1"] })
                    version.withLock { $0 = "v2" }
                    #expect(try await http.answer(url, method: .POST).status == 200)
                    let after = try await http.answer(url)
                    #expect(try rawItems(after.text).allSatisfy { $0.contains("\"v2\"") }, "\(after.text)")
                    #expect(after.headers["Cache-Status"].first?.contains("collapsed") == false)
                    let first = try await before
                    #expect(try rawItems(first.text).allSatisfy { $0.contains("\"v1\"") })
                    #expect(first.headers["Cache-Status"].first?.contains("stored") == false)
                    let again = try await http.answer(url)
                    #expect(try rawItems(again.text).allSatisfy { $0.contains("\"v2\"") })
                    #expect(again.headers["Cache-Status"].first?.hasPrefix("folio; hit") == true)
                }
            }
        }
    }
}
