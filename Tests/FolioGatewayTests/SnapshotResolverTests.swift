import FolioConfiguration
import FolioEngine
import Logging
import Testing

@testable import FolioGateway

/// Fill coordination on its own: the resolver over a real `FillCoalescer`, an in-memory
/// upstream and a test clock; no sockets, no HTTP.
@Suite("SnapshotResolver coordinates cache, fills and stale answers")
struct SnapshotResolverTests {
    static let url = "http://upstream.test/objects"
    let clock = TestClock()

    func resolver(
        _ upstream: MemoryUpstream, cache: String = "ttl: 10s, staleWhileRevalidate: 0s, staleIfError: 60s"
    ) throws -> (SnapshotResolver, CompiledRoute) {
        let configuration = try ConfigurationLoader.parse(
            yaml: gatewayYAML(upstream: Self.url, route: "cache: { \(cache) }"), file: "test.yaml")
        let metrics = GatewayMetrics()
        let route = CompiledRoute(
            configuration.routes[0], limits: configuration.limits, metrics: metrics.route("objects"))
        var logger = Logger(label: "folio.test")
        logger.logLevel = .critical
        let store = MemorySnapshotStore.gatewayDefault(cache: configuration.cache, metrics: metrics, now: clock.now)
        let resolver = SnapshotResolver(
            cache: FillCoalescer(store: store, now: clock.now),
            pipeline: FillPipeline(upstream: upstream, limits: configuration.limits, logger: logger, now: clock.now),
            metrics: metrics)
        return (resolver, route)
    }

    var plan: FillPlan {
        FillPlan(key: CacheKey(route: "objects", upstreamURL: Self.url, varyValues: [], partition: nil), url: Self.url)
        {
            [:]
        }
    }

    /// The snapshot and outcome of a served resolution; nil (with an issue) otherwise.
    func served(_ resolution: Resolution, sourceLocation: SourceLocation = #_sourceLocation) -> (
        Snapshot, CacheOutcome
    )? {
        guard case .served(let snapshot, let outcome, _) = resolution else {
            Issue.record("expected a served snapshot, got \(resolution)", sourceLocation: sourceLocation)
            return nil
        }
        return (snapshot, outcome)
    }

    @Test func concurrentColdRequestsShareOneFill() async throws {
        let upstream = MemoryUpstream([Self.url: .init(chunks: ["[1,2,3]"], delay: .milliseconds(200))])
        let (resolver, route) = try resolver(upstream)
        let plan = self.plan
        let outcomes = await withTaskGroup(of: CacheOutcome?.self) { group in
            for _ in 0..<5 {
                group.addTask {
                    guard case .served(_, let outcome, _) = await resolver.resolve(plan, token: nil, route: route)
                    else {
                        return nil
                    }
                    return outcome
                }
            }
            return await group.reduce(into: [CacheOutcome?]()) { $0.append($1) }
        }
        #expect(upstream.requests.count == 1)
        #expect(outcomes.filter { $0 == .stored }.count == 1)
        #expect(outcomes.filter { $0 == .collapsed }.count == 4)
    }

    @Test func aFreshListIsAHitWithoutAnUpstreamRequest() async throws {
        let upstream = MemoryUpstream([Self.url: .init(chunks: ["[1,2,3]"])])
        let (resolver, route) = try resolver(upstream)
        _ = await resolver.resolve(plan, token: nil, route: route)
        clock.advance(.seconds(4))
        guard let (snapshot, outcome) = served(await resolver.resolve(plan, token: nil, route: route)) else { return }
        #expect(outcome == .hit(ttl: 6))
        #expect(snapshot.list.count == 3)
        #expect(upstream.requests.count == 1)
    }

    @Test func aFailingRefillServesTheStaleListWithinStaleIfErrorOnly() async throws {
        let upstream = MemoryUpstream([Self.url: .init(chunks: ["[1,2,3]"])])
        let (resolver, route) = try resolver(upstream)
        _ = await resolver.resolve(plan, token: nil, route: route)
        upstream.answer(Self.url, with: .init(status: 503, chunks: ["down"]))

        clock.advance(.seconds(15))  // stale by 5 s, within staleIfError (60 s)
        guard let (stale, outcome) = served(await resolver.resolve(plan, token: nil, route: route)) else { return }
        #expect(outcome == .staleOnError(status: 503, ttl: -5))
        #expect(stale.list.count == 3)

        clock.advance(.seconds(60))  // stale by 65 s
        guard case .upstream(let answer, let failed) = await resolver.resolve(plan, token: nil, route: route) else {
            Issue.record("expected the upstream's error passed through")
            return
        }
        #expect(answer.status == 503 && answer.body == Array("down".utf8))
        #expect(failed == .missFailed(status: 503))
        #expect(upstream.requests.count == 3)
    }

    /// The pinned request on its stale list is answered at once and refreshes the list in the
    /// background (the refill is held until the test opens its gate); afterwards the token is
    /// a retained one.
    @Test func aPinnedTokenIsAnsweredFromItsRetainedSnapshotAfterARefill() async throws {
        let upstream = MemoryUpstream([Self.url: .init(chunks: ["[1,2,3]"])])
        let (resolver, route) = try resolver(upstream)
        guard let (first, _) = served(await resolver.resolve(plan, token: nil, route: route)) else { return }
        let refill = Latch()
        upstream.answer(Self.url, with: .init(chunks: ["[4,5]"], gate: refill))
        clock.advance(.seconds(11))
        // A safety net, not a timing: a resolver that waited for the refill must not hang the run.
        let safety = Task {
            try? await Task.sleep(for: .seconds(5))
            refill.open()
        }
        defer { safety.cancel() }

        guard let (pinned, stale) = served(await resolver.resolve(plan, token: first.token, route: route)) else {
            return
        }
        #expect(!refill.isOpen, "answered while the refill is held")
        #expect(pinned.token == first.token && pinned.list.count == 3)
        #expect(stale == .hit(ttl: -1))
        #expect(resolver.cache.fillsInFlight == 1, "the refill runs in the background")
        refill.open()
        try await waitUntil("the refill ended") { resolver.cache.fillsInFlight == 0 }
        guard let (retained, _) = served(await resolver.resolve(plan, token: first.token, route: route)) else {
            return
        }
        #expect(retained.token == first.token && retained.list.count == 3)
        guard let (current, outcome) = served(await resolver.resolve(plan, token: nil, route: route)) else { return }
        #expect(current.token != first.token && current.list.count == 2)
        #expect(outcome.header.hasPrefix("folio; hit"))
        #expect(upstream.requests.count == 2)
    }

    @Test func anUnknownTokenOnAFreshListIsGoneWithoutAnUpstreamRequest() async throws {
        let upstream = MemoryUpstream([Self.url: .init(chunks: ["[1]"])])
        let (resolver, route) = try resolver(upstream)
        _ = await resolver.resolve(plan, token: nil, route: route)
        guard case .gone(let current, let outcome) = await resolver.resolve(plan, token: "not-a-token", route: route)
        else {
            Issue.record("expected 410")
            return
        }
        #expect(current.list.count == 1)
        #expect(outcome == .hit(ttl: 10))
        #expect(upstream.requests.count == 1)
    }

    @Test func aFailedFillWithNothingStaleIsAProblem() async throws {
        let upstream = MemoryUpstream([Self.url: .init(chunks: ["[1,"])])
        let (resolver, route) = try resolver(upstream)
        guard case .failed(let error, let outcome) = await resolver.resolve(plan, token: nil, route: route) else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.code == "bad-upstream-body")
        #expect(outcome == .missFailed(status: 502))
    }
}
