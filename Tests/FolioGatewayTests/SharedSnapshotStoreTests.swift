import FolioConfiguration
import FolioEngine
import FolioRedis
import FolioRedisStore
import FolioTestSupport
import Logging
import Testing

@testable import FolioGateway

/// The shared store on its own over a real `redis-server`, with a test clock: which list a
/// replica serves when its own copy and Redis's newest disagree.
@Suite("SharedSnapshotStore chooses between its copy and Redis's")
struct SharedSnapshotStoreTests {
    static let url = "http://upstream.test/objects"
    static let key = CacheKey(route: "objects", upstreamURL: url, varyValues: [], partition: nil)
    static let ttl = Duration.seconds(10)
    let clock = TestClock()
    let epoch = ContinuousClock.now
    static let epochMilliseconds: Int64 = 1_764_000_000_000

    /// Wall-clock milliseconds that move with the test clock.
    var wallClock: @Sendable () -> Int64 {
        { [clock, epoch] in Self.epochMilliseconds + (clock.now() - epoch).milliseconds }
    }

    func store(_ server: RedisServer) throws -> (SharedSnapshotStore, RedisSnapshots) {
        let configuration = try ConfigurationLoader.parse(
            yaml: gatewayYAML(upstream: Self.url, route: "cache: { ttl: 10s }"), file: "test.yaml")
        let metrics = GatewayMetrics()
        var logger = Logger(label: "folio.test")
        logger.logLevel = .critical
        let redis = RedisSnapshots(client: RedisClient(server.configuration()), keys: RedisSnapshotKeys(prefix: "t:"))
        let store = SharedSnapshotStore(
            local: Gateway.memoryStore(cache: configuration.cache, metrics: metrics, now: clock.now), redis: redis,
            health: StoreHealth(logger: logger, metrics: metrics), logger: logger, now: clock.now,
            wallClock: wallClock)
        store.describe([
            CompiledRoute(configuration.routes[0], limits: configuration.limits, metrics: metrics.route("objects"))
        ])
        return (store, redis)
    }

    /// A list of three elements tagged `tag`, stored now (on the test clock) and fresh for `ttl`.
    func stored(_ tag: String) throws -> StoredList {
        let body = Array(#"[{"id":1,"v":"\#(tag)"},{"id":2,"v":"\#(tag)"},{"id":3,"v":"\#(tag)"}]"#.utf8)
        var indexer = ListIndexer(items: .root, limits: IndexLimits(), sort: [])
        try indexer.append(body)
        _ = try indexer.endBody()
        let (list, token) = try indexer.finish()
        return StoredList(
            list: list, token: token, sort: [], storedAtMilliseconds: wallClock(),
            lifetimeMilliseconds: Self.ttl.milliseconds, etag: nil, lastModified: nil, mustRevalidate: false)
    }

    @Test func aStaleCopyIsNotReplacedByAnOlderListFromRedis() async throws {
        try await RedisServer.with { server in
            let (store, redis) = try store(server)
            // Another replica stored v1; this one filled v2 later while Redis was unavailable.
            let older = try stored("v1")
            try await redis.write(older, for: Self.key, expiry: .seconds(60), retention: .seconds(60))
            clock.advance(.seconds(4))
            let newer = store.snapshot(try stored("v2"), shape: try #require(store.shape("objects")))
            #expect(store.local.install(newer, for: Self.key, retention: .seconds(60), staleFor: .zero))

            clock.advance(.seconds(12))  // both stale: v2 is still the newer list
            #expect(await store.current(Self.key)?.token == newer.token)

            // A list fresher than the held one (another replica's refill) is adopted.
            let refill = try stored("v3")
            try await redis.write(refill, for: Self.key, expiry: .seconds(60), retention: .seconds(60))
            #expect(await store.current(Self.key)?.token == refill.token)
        }
    }
    /// How a replica hears that a route was dropped while its load from Redis is in flight.
    enum DropHeard: CaseIterable {
        /// Another replica's `dropped` event.
        case event
        /// Its events subscription failed and came back (drops it may have missed).
        case resubscription
    }

    /// A load that read Redis before another replica's drop must not install the dropped list
    /// when the drop's news arrives first (before: it did, and the replica served the purged
    /// list until it went stale).
    @Test(arguments: DropHeard.allCases)
    func aLoadOvertakenByADropInstallsNothing(_ heard: DropHeard) async throws {
        try await RedisServer.with { server in
            let (store, redis) = try store(server)
            let dropped = try stored("v1")
            try await redis.write(dropped, for: Self.key, expiry: .seconds(60), retention: .seconds(60))

            // Redis answers nothing until resumed: the load below reads the dropped list
            // (the other replica's drop has not reached Redis yet), but only after the news.
            server.pause()
            let load = Task { await store.current(Self.key) }
            while store.loadsInFlight == 0 { try await Task.sleep(for: .milliseconds(2)) }
            switch heard {
            case .event:
                store.receive(
                    SharedStoreEvent(
                        kind: .dropped, origin: "another replica", route: "objects", retentionMilliseconds: 0
                    )
                    .encoded)
            case .resubscription:
                store.subscriptionFailed(.refused("test: subscription lost"))
                store.resubscribed()
            }
            server.resume()

            #expect(await load.value == nil)
            #expect(store.local.current(Self.key) == nil)
        }
    }
}
