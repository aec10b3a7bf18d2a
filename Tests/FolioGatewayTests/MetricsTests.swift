import FolioConfiguration
import FolioEngine
import Foundation
import Prometheus
import Testing

@testable import FolioGateway

@Suite("Metrics on /metrics move with traffic")
struct MetricsTests {
    private let objects = ["route": "objects"]

    @Test func requestsUpstreamFetchesAndCacheLookupsAreCounted() async throws {
        let (body, _) = objectsBody(10)
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            let yaml = gatewayYAML(
                upstream: upstream.baseURL + "/objects", admin: true, top: "cache:\n  maxBytes: 3MiB")
            _ = try await withFolio(yaml) { folio in
                let before = try await folio.metrics()
                #expect(before.value("folio_cache_max_bytes") == Double(3 << 20))
                let pages = 3
                for page in 0..<pages {
                    #expect(try await folio.get("\(folio.client)/objects?pageSize=2&page=\(page)").status == 200)
                }
                #expect(try await folio.get("\(folio.client)/objects?pageSize=abc").status == 400)
                #expect(try await folio.get("\(folio.client)/nowhere").status == 404)
                let after = try await folio.metrics()

                func moved(_ name: String, _ labels: [String: String]) -> Double {
                    after.value(name, labels) - before.value(name, labels)
                }
                #expect(moved("folio_requests_total", ["route": "objects", "status_class": "2xx"]) == Double(pages))
                #expect(moved("folio_requests_total", ["route": "objects", "status_class": "4xx"]) == 1)
                #expect(moved("folio_requests_total", ["route": "none", "status_class": "4xx"]) == 1)
                #expect(moved("folio_request_duration_seconds_count", objects) == Double(pages + 1))
                #expect(moved("folio_upstream_fetches_total", ["route": "objects", "outcome": "2xx"]) == 1)
                #expect(moved("folio_upstream_fetch_duration_seconds_count", objects) == 1)
                #expect(moved("folio_cache_lookups_total", ["route": "objects", "result": "miss"]) == 1)
                #expect(moved("folio_cache_lookups_total", ["route": "objects", "result": "hit"]) == Double(pages - 1))
                #expect(after.value("folio_snapshots") == 1)
                #expect(after.value("folio_fills_in_flight") == 0)

                let key = try folio.server.gateway.cacheKey(
                    route: "objects", upstreamURL: "\(upstream.baseURL)/objects")
                let snapshot = try #require(await folio.server.gateway.cache.current(key))
                #expect(after.value("folio_cache_bytes") == Double(snapshot.retainedBytes))
                #expect(snapshot.retainedBytes > 0)
            }
        }
    }

    @Test func upstreamErrorsAreCountedByOutcome() async throws {
        try await withTestUpstream({ _ in .json(#"{"error":"down"}"#, status: 503) }) { upstream in
            _ = try await withFolio(gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true)) { folio in
                #expect(try await folio.get("\(folio.client)/objects").status == 503)
                let samples = try await folio.metrics()
                #expect(samples.value("folio_upstream_fetches_total", ["route": "objects", "outcome": "5xx"]) == 1)
                #expect(samples.value("folio_upstream_fetches_total", ["route": "objects", "outcome": "2xx"]) == 0)
                #expect(samples.value("folio_requests_total", ["route": "objects", "status_class": "5xx"]) == 1)
                #expect(samples.value("folio_cache_lookups_total", ["route": "objects", "result": "miss"]) == 1)
            }
        }
    }

    @Test func unreachableUpstreamIsAnErrorOutcome() async throws {
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }  // held until the test ends
        _ = try await withFolio(gatewayYAML(upstream: refusing.url + "/objects", admin: true)) { folio in
            #expect(try await folio.get("\(folio.client)/objects").status == 502)
            let samples = try await folio.metrics()
            #expect(samples.value("folio_upstream_fetches_total", ["route": "objects", "outcome": "error"]) == 1)
        }
    }

    /// A forward whose upstream cannot be reached is a 502 that still says how the cache was
    /// involved (docs/API.md, "Cache-Status": `fwd=request` for an unsafe method, `fwd=bypass` for the fallback),
    /// and one upstream exchange that failed.
    @Test func aFailedForwardKeepsItsCacheStatus() async throws {
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }  // held until the test ends
        let yaml = gatewayYAML(upstream: refusing.url + "/objects", admin: true)
            .replacingOccurrences(
                of: "  admin: 127.0.0.1:0", with: "  admin: 127.0.0.1:0\n  fallbackUpstream: \(refusing.url)")
        _ = try await withFolio(yaml) { folio in
            let post = try await folio.http.answer("\(folio.client)/objects", method: .POST, body: Array("{}".utf8))
            #expect(post.status == 502)
            #expect(post.headers.first(name: "Cache-Status") == "folio; fwd=request")
            let fallback = try await folio.get("\(folio.client)/elsewhere")
            #expect(fallback.status == 502)
            #expect(fallback.headers.first(name: "Cache-Status") == "folio; fwd=bypass")
            let samples = try await folio.metrics()
            #expect(samples.value("folio_upstream_fetches_total", ["route": "objects", "outcome": "error"]) == 1)
        }
    }

    /// How the upstream answers a fill: five objects, a 503, or five objects it forbids storing.
    enum FillEnd: CaseIterable, Sendable {
        case stored, failed, uncacheable

        var reply: TestUpstream.Reply {
            let (objects, _) = objectsBody(5)
            return switch self {
            case .stored: .json(objects)
            case .failed: .json(#"{"error":"overloaded"}"#, status: 503)
            case .uncacheable: .json(objects, headers: [("Cache-Control", "no-store")])
            }
        }
    }

    /// Runs `body` with a gateway whose upstream answers as `end` says once `gate` opens.
    static func withGatedFolio(
        _ gate: Latch, end: FillEnd = .stored, _ body: @Sendable (RunningFolio, TestUpstream) async throws -> Void
    ) async throws {
        try await withGatedUpstream(gate, end.reply) { upstream in
            _ = try await withFolio(gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true)) { folio in
                try await body(folio, upstream)
            }
        }
    }

    /// Waiters count whatever came of the fill they waited on: a failure too, and an answer
    /// they may not share (each then fetches its own).
    @Test(arguments: FillEnd.allCases)
    func concurrentMissesCountOneFillAndCoalescedWaiters(end: FillEnd) async throws {
        let gate = Latch()
        try await Self.withGatedFolio(gate, end: end) { folio, upstream in
            let status = end == .failed ? 503 : 200
            let waiters = 3
            try await withThrowingTaskGroup(of: Int.self) { group in
                group.addTask { try await folio.get("\(folio.client)/objects").status }
                try await waitUntil("the fill reached the upstream") { upstream.headCount == 1 }
                for _ in 0..<waiters {
                    group.addTask { try await folio.get("\(folio.client)/objects").status }
                }
                try await waitUntil("waiters joined the fill") {
                    folio.server.gateway.cache.fillsInFlight == 1 && folio.server.current.inFlight == waiters + 1
                }
                let during = try await folio.metrics()
                #expect(during.value("folio_fills_in_flight") == 1)
                gate.open()
                for try await answered in group { #expect(answered == status) }
            }
            let samples = try await folio.metrics()
            #expect(upstream.requestCount == (end == .uncacheable ? 1 + waiters : 1))
            #expect(samples.value("folio_coalesced_waiters_total") == Double(waiters))
            // A failed fill's waiters answer `fwd=miss; fwd-status=503`, as its leader does; an
            // uncacheable one's `fwd=uri-miss` after their own fetches.
            let (collapsed, misses, uncacheable) =
                switch end {
                case .stored: (waiters, 1, 0)
                case .failed: (0, waiters + 1, 0)
                case .uncacheable: (0, 0, waiters + 1)
                }
            let lookups = { (result: String) in
                samples.value("folio_cache_lookups_total", ["route": "objects", "result": result])
            }
            #expect(lookups("collapsed") == Double(collapsed))
            #expect(lookups("miss") == Double(misses))
            #expect(lookups("uncacheable") == Double(uncacheable))
            #expect(samples.value("folio_fills_in_flight") == 0)
        }
    }

    /// A purge forgets the fill in flight (a later request starts its own), but the forgotten
    /// one still fetches: both count in `folio_fills_in_flight` until they end.
    @Test func aFillAPurgeForgotCountsUntilItEnds() async throws {
        let gate = Latch()
        try await Self.withGatedFolio(gate) { folio, upstream in
            let first = Task { try await folio.get("\(folio.client)/objects").status }
            try await waitUntil("the fill reached the upstream") { upstream.headCount == 1 }
            #expect(try await folio.post("\(folio.admin)/purge?route=objects").status == 204)
            let second = Task { try await folio.get("\(folio.client)/objects").status }
            try await waitUntil("a second fill reached the upstream") { upstream.headCount == 2 }
            #expect(try await folio.metrics().value("folio_fills_in_flight") == 2)
            gate.open()
            #expect(try await first.value == 200)
            #expect(try await second.value == 200)
            #expect(try await folio.metrics().value("folio_fills_in_flight") == 0)
        }
    }

    /// A reload replaces the gateway, not the fills it started: one still fetching on the
    /// replaced gateway counts until it ends (before: the new gateway's cache alone was read).
    @Test func aFillOfAReplacedGatewayCountsUntilItEnds() async throws {
        let gate = Latch()
        try await Self.withGatedFolio(gate) { folio, upstream in
            let first = Task { try await folio.get("\(folio.client)/objects").status }
            try await waitUntil("the fill reached the upstream") { upstream.headCount == 1 }
            let reloaded = await folio.server.reload(
                configuration: try ConfigurationLoader.parse(
                    yaml: gatewayYAML(
                        upstream: upstream.baseURL + "/objects", admin: true, route: "cache: { ttl: 5s }"),
                    file: "reload.yaml"))
            #expect(reloaded.applied)
            #expect(try await folio.metrics().value("folio_fills_in_flight") == 1)
            gate.open()
            #expect(try await first.value == 200)
            #expect(try await folio.metrics().value("folio_fills_in_flight") == 0)
        }
    }

    @Test func credentialedBypassIsCountedAsBypass() async throws {
        try await withTestUpstream({ _ in .json("[1]") }) { upstream in
            _ = try await withFolio(gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true)) { folio in
                _ = try await folio.get("\(folio.client)/objects", headers: [("Authorization", "Bearer x")])
                let samples = try await folio.metrics()
                #expect(samples.value("folio_cache_lookups_total", ["route": "objects", "result": "bypass"]) == 1)
                #expect(samples.value("folio_snapshots") == 0)
            }
        }
    }

    @Test func twoGatewaysWithTheirOwnRegistriesDoNotShareCounts() throws {
        let first = GatewayMetrics(registry: PrometheusCollectorRegistry())
        let second = GatewayMetrics(registry: PrometheusCollectorRegistry())
        first.route("objects").request(status: 200, duration: .milliseconds(3))
        let firstSamples = try PrometheusSamples(String(decoding: first.registry.emitToBuffer(), as: UTF8.self))
        let secondSamples = try PrometheusSamples(String(decoding: second.registry.emitToBuffer(), as: UTF8.self))
        #expect(firstSamples.value("folio_requests_total", ["route": "objects", "status_class": "2xx"]) == 1)
        #expect(secondSamples["folio_requests_total", ["route": "objects", "status_class": "2xx"]] == nil)
    }

    @Test func handlesForOneRouteAreTheSameSeriesAfterARebuild() throws {
        let metrics = GatewayMetrics(registry: PrometheusCollectorRegistry())
        metrics.route("objects").request(status: 201, duration: .milliseconds(1))
        metrics.route("objects").request(status: 204, duration: .milliseconds(1))
        let samples = try PrometheusSamples(String(decoding: metrics.registry.emitToBuffer(), as: UTF8.self))
        #expect(samples.value("folio_requests_total", ["route": "objects", "status_class": "2xx"]) == 2)
        #expect(samples.value("folio_request_duration_seconds_count", ["route": "objects"]) == 2)
    }

    @Test(arguments: [
        (CacheOutcome.hit(ttl: 30), "folio; hit; ttl=30", CacheResult.hit),
        (.hit(ttl: 0), "folio; hit; ttl=0", .hit),
        (.hit(ttl: -4), "folio; hit; ttl=-4", .stale),
        (.revalidated(ttl: 60), "folio; fwd=stale; fwd-status=304; ttl=60", .revalidated),
        (.refetched, "folio; fwd=stale; fwd-status=200; stored", .refetched),
        (.staleOnError(status: 502, ttl: -10), "folio; fwd=stale; fwd-status=502; ttl=-10", .stale),
        (.stored, "folio; fwd=miss; stored", .miss),
        (.missFailed(status: 504), "folio; fwd=miss; fwd-status=504", .miss),
        (.collapsed, "folio; fwd=miss; collapsed", .collapsed),
        (.uncacheable, "folio; fwd=uri-miss", .uncacheable),
        (.uncacheable.failed(with: 502), "folio; fwd=miss; fwd-status=502", .miss),
        (.bypass, "folio; fwd=bypass", .bypass),
        // Exactly the parameters of its row (docs/API.md, "Cache-Status"): no `fwd-status` on a bypass.
        (.bypass.failed(with: 504), "folio; fwd=bypass", .bypass),
    ])
    func oneOutcomeWritesTheHeaderAndLabelsTheMetric(outcome: CacheOutcome, header: String, result: CacheResult) {
        #expect(outcome.header == header)
        #expect(outcome.result == result)
        // A client reading the header back gets the same label.
        #expect(CacheResult(cacheStatus: header) == result)
    }

    /// A bypass stays a bypass; any other failed direct fetch is a failed fill (docs/API.md's "Cache-Status" rows).
    @Test func aFailedDirectFetchTakesItsRow() {
        #expect(CacheOutcome.bypass.failed(with: 502) == .bypass)
        #expect(CacheOutcome.uncacheable.failed(with: 504) == .missFailed(status: 504))
        #expect(CacheOutcome.stored.failed(with: 502) == .missFailed(status: 502))
    }

    @Test func answersThatSkippedTheCacheAreNotLookups() {
        #expect(CacheResult(cacheStatus: "folio; fwd=request") == nil)
        #expect(CacheResult(cacheStatus: "") == nil)
    }

    @Test func statusClassesAreBounded() {
        #expect(StatusClass.index(200) == 1)
        #expect(StatusClass.index(599) == 4)
        #expect(StatusClass.index(99) == 0)
        #expect(StatusClass.index(999) == 4)
        #expect(UpstreamOutcome(failureStatus: 504) == .timeout)
        #expect(UpstreamOutcome(failureStatus: 502) == .error)
        #expect(UpstreamOutcome(status: 404).label == "4xx")
    }
}
