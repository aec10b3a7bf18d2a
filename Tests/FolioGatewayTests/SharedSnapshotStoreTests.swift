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
}
