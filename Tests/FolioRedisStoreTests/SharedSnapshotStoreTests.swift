import FolioEngine
import FolioRedis
import FolioTestSupport
import Logging
import Synchronization
import Testing

@testable import FolioRedisStore

/// The shared store on its own over a real `redis-server`, with a test clock: which list a
/// replica serves when its own copy and Redis's newest disagree.
@Suite("SharedSnapshotStore chooses between its copy and Redis's")
struct SharedSnapshotStoreTests {
    static let url = "http://upstream.test/objects"
    /// The route as a gateway describes it: its lists' variant, upstream order, no sections, and
    /// `snapshotRetention`'s default.
    static let shape = RouteShape(
        variant: "objects-list", sectionKey: nil, defaultSort: .upstream, retention: .seconds(600))
    /// The key of the route's anonymous list, with the variant the store's route shape has.
    static let key = CacheKey(route: "objects", upstreamURL: url, variant: shape.variant)
    static let ttl = Duration.seconds(10)
    let clock = TestClock()
    let epoch = ContinuousClock.now
    static let epochMilliseconds: Int64 = 1_764_000_000_000

    /// Wall-clock milliseconds that move with the test clock.
    var wallClock: @Sendable () -> Int64 {
        { [clock, epoch] in Self.epochMilliseconds + (clock.now() - epoch).milliseconds }
    }

    func store(_ server: RedisServer) throws -> (SharedSnapshotStore, RedisSnapshots) {
        var logger = Logger(label: "folio.test")
        logger.logLevel = .critical
        let redis = RedisSnapshots(client: RedisClient(server.configuration()), keys: RedisSnapshotKeys(prefix: "t:"))
        let store = SharedSnapshotStore(
            local: MemorySnapshotStore(maxBytes: 512 << 20, now: clock.now), redis: redis,
            health: StoreHealth(logger: logger, metrics: UncountedMetrics()), logger: logger, now: clock.now,
            wallClock: wallClock)
        store.describe(["objects": Self.shape])
        return (store, redis)
    }

    /// What the tests' fills give: a list, shared with the replicas that waited.
    enum TestFill: FillOutcome {
        case stored(Snapshot)

        var end: FillEnd { .shareable }

        static func failure(_ error: any Error) -> FillFailure { FillFailure(detail: "\(error)") }
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

    /// `stored` as the store's replica serves it (the route's shape, this replica's clock).
    func snapshot(_ stored: StoredList, in store: SharedSnapshotStore) throws -> Snapshot {
        let shape = try #require(store.shapes.shape(of: "objects"))
        return shape.snapshot(stored, storedAt: store.clock.storedAt(stored.storedAtMilliseconds))
    }

    /// Writes `stored(tag)` to Redis as `key`'s newest, as another replica's fill would.
    func shared(_ tag: String, in redis: RedisSnapshots, for key: CacheKey = Self.key) async throws -> StoredList {
        let list = try stored(tag)
        try await redis.write(list, for: key, expiry: .seconds(60), retention: .seconds(60))
        return list
    }

    @Test func aStaleCopyIsNotReplacedByAnOlderListFromRedis() async throws {
        try await RedisServer.with { server in
            let (store, redis) = try store(server)
            // Another replica stored v1; this one filled v2 later while Redis was unavailable.
            let older = try await shared("v1", in: redis)
            clock.advance(.seconds(4))
            let newer = try snapshot(try stored("v2"), in: store)
            #expect(store.local.install(newer, for: Self.key, retention: .seconds(60), staleFor: .zero))

            clock.advance(.seconds(12))  // both stale: v2 is still the newer list
            #expect(await store.current(Self.key)?.token == newer.token)

            // A list fresher than the held one (another replica's refill) is adopted.
            let refill = try await shared("v3", in: redis)
            #expect(await store.current(Self.key)?.token == refill.token)
        }
    }
    /// After a lost subscription every local copy is retained; one that Redis still names is
    /// current again without its bytes being read back. Here its parts are gone from Redis, so
    /// reading them would find nothing (a failed check, a miss).
    @Test func aCopyRedisStillNamesIsCurrentAgainWithoutAReadAfterAResubscription() async throws {
        try await RedisServer.with { server in
            let (store, redis) = try store(server)
            let list = try await shared("v1", in: redis)
            let loaded = try #require(await store.current(Self.key))
            #expect(loaded.token == list.token)
            let client = RedisClient(server.configuration())
            let deleted = try await client.send([
                "DEL", redis.keys.part(RedisSnapshotKeys.hash(Self.key), token: list.token, index: 0),
            ])
            #expect(deleted == .integer(1), "\(deleted)")
            await client.close()

            store.subscriptionFailed(.refused("test: subscription lost"))
            await store.resubscribed()
            #expect(store.local.current(Self.key) == nil, "retained until Redis is asked")
            #expect(await store.current(Self.key)?.token == list.token)
            #expect(store.local.current(Self.key)?.token == list.token)
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
            let dropped = try await shared("v1", in: redis)

            // Redis answers nothing until resumed: the load below reads the dropped list
            // (the other replica's drop has not reached Redis yet), but only after the news.
            server.pause()
            let load = Task { await store.current(Self.key) }
            while store.loader.loadsInFlight == 0 { try await Task.sleep(for: .milliseconds(2)) }
            var catchUp: Task<Void, Never>?
            switch heard {
            case .event:
                store.receive(
                    SharedStoreEvent(
                        kind: .dropped, origin: "another replica", route: "objects", retentionMilliseconds: 0
                    )
                    .encoded)
            case .resubscription:
                store.subscriptionFailed(.refused("test: subscription lost"))
                // The catch-up's own read of Redis waits for the server too.
                let lost = store.subscriptionBack()
                catchUp = Task { await store.catchUp(afterLoss: lost) }
            }
            server.resume()
            await catchUp?.value

            #expect(await load.value == nil)
            #expect(store.local.current(Self.key) == nil)
        }
    }
    /// A fill holding the key's lock that another replica's drop overtakes (the drop reaches
    /// Redis while the list is fetched) does not make its list Redis's newest: before, its copy
    /// to Redis pointed every replica back at what the drop removed.
    @Test func aFillADropOvertookIsNotShared() async throws {
        try await RedisServer.with { server in
            let (store, redis) = try store(server)
            let coordinated = try await store.fillOnce(Self.key, timeout: .seconds(10)) {
                // Another replica's purge reaches Redis while this fill fetches.
                try await redis.drops.drop(route: "objects", retention: .zero, atMilliseconds: wallClock())
                let snapshot = try snapshot(try stored("v1"), in: store)
                #expect(await store.install(snapshot, for: Self.key, retention: .zero, staleFor: .zero))
                return TestFill.stored(snapshot)
            }
            guard case .filled(.stored) = coordinated else {
                Issue.record("the fill was not this replica's: \(coordinated)")
                return
            }
            try #require(
                try await eventually(
                    timeout: .seconds(60), asking: { try await redis.locks.lockOwner(Self.key) == nil }),
                "the lock was released")
            #expect(try await redis.newestToken(for: Self.key) == nil)
        }
    }

    /// A fill lock is a short lease its filler renews while it works, not the fill's whole
    /// timeout: a replica killed mid-fill held everyone else for that timeout (35 s with the
    /// defaults) before.
    @Test func aFillLockIsALeaseRenewedWhileTheFillWorks() async throws {
        try await RedisServer.with { server in
            let (store, redis) = try store(server)
            let (go, letGo) = AsyncStream<Void>.makeStream()
            let filling = Task {
                try await store.fillOnce(Self.key, timeout: .seconds(60)) {
                    for await _ in go { break }
                    let snapshot = try snapshot(try stored("v1"), in: store)
                    _ = await store.install(snapshot, for: Self.key, retention: .zero, staleFor: .zero)
                    return TestFill.stored(snapshot)
                }
            }
            try #require(
                try await eventually(
                    timeout: .seconds(60), asking: { try await redis.locks.lockOwner(Self.key) != nil }))
            let owner = try await redis.locks.lockOwner(Self.key)
            let ttl = try #require(try await redis.client.send(["PTTL", redis.keys.lock(Self.key)]).integer)
            #expect(ttl <= FillLock.lease.milliseconds, "a lease, not the fill's timeout")
            // A renewal moves the expiry forward: the lease left grows again, under the same owner.
            var least = ttl
            let renewed = try await eventually(timeout: .seconds(30)) {
                let left = try #require(try await redis.client.send(["PTTL", redis.keys.lock(Self.key)]).integer)
                defer { least = min(least, left) }
                guard left > least else { return false }
                return try await redis.locks.lockOwner(Self.key) == owner
            }
            #expect(renewed, "renewed while the fill works")
            letGo.yield()
            letGo.finish()
            _ = try await filling.value
            try #require(
                try await eventually(
                    timeout: .seconds(10), asking: { try await redis.locks.lockOwner(Self.key) == nil }),
                "released, and no longer renewed")
        }
    }

    /// A filler that died holding the lock (its lease is not renewed) holds its waiters for the
    /// lease only: one of them takes the lock and fills.
    @Test func theWaitersOfAFillerThatDiedTakeOverWhenItsLeaseLapses() async throws {
        try await RedisServer.with { server in
            let (store, redis) = try store(server)
            #expect(try await redis.locks.lock(Self.key, owner: "replica-killed-mid-fill", expiry: FillLock.lease))
            let coordinated = try await store.fillOnce(Self.key, timeout: .seconds(600)) {
                let snapshot = try snapshot(try stored("v1"), in: store)
                return TestFill.stored(snapshot)
            }
            guard case .filled = coordinated else {
                Issue.record("the waiter did not take over: \(coordinated)")
                return
            }
        }
    }

    /// A drop Redis refused (an error answer leaves the store available) is kept and sent
    /// later; until then the replica does not load from Redis the list it dropped.
    @Test func aDropRedisRefusedIsReplayedAndItsListNotLoadedMeanwhile() async throws {
        try await RedisServer.with { server in
            let (store, redis) = try store(server)
            let dropped = try await shared("v1", in: redis)
            // A replica of no reachable primary: reads work, writes answer READONLY.
            try await redis.client.send(["REPLICAOF", "127.0.0.1", "1"])
            await store.supersede(route: "objects", retention: .zero)
            #expect(store.health.isAvailable)
            #expect(store.drops.pending.isPending("objects"))
            #expect(await store.current(Self.key) == nil)

            try await redis.client.send(["REPLICAOF", "NO", "ONE"])
            #expect(await store.dropSync.replay())
            #expect(!store.drops.pending.isPending("objects"))
            #expect(try await redis.newestToken(for: Self.key) == nil)
        }
    }

    /// A drop is pending from its start until Redis took it: a request meanwhile does not load
    /// the dropped list from Redis (which still points at it) and install it again.
    @Test func aDropOnItsWayToRedisKeepsLoadsOfItsRouteOffRedis() async throws {
        try await RedisServer.with { server in
            let (store, redis) = try store(server)
            _ = try await shared("v1", in: redis)
            server.pause()
            let dropping = Task { await store.supersede(route: "objects", retention: .zero) }
            try #require(
                await eventually(timeout: .seconds(60)) { store.drops.pending.isPending("objects") },
                "the drop is on its way")
            #expect(store.health.isAvailable, "pending while on its way, not only once it failed")
            #expect(await store.current(Self.key) == nil, "answered without Redis, which holds v1")
            server.resume()
            await dropping.value
            #expect(!store.drops.pending.isPending("objects"))
            #expect(try await redis.newestToken(for: Self.key) == nil)
        }
    }

    /// A drop stops being pending once Redis removed the route's pointers and the drop was
    /// announced: shortening the expiry of the snapshots they named (two round trips per cache
    /// key before) neither holds the route off Redis meanwhile nor makes the drop replayed.
    /// A retention step that failed is kept and sent again by the probe.
    @Test func aDropIsDoneOnceItsPointersAreGoneAndAFailedRetentionStepIsSentAgain() async throws {
        try await RedisServer.with { server in
            let (store, redis) = try store(server)
            let dropped = try await shared("v1", in: redis)
            // The retention step reads each named snapshot's metadata: make that read fail.
            let meta = redis.keys.meta(RedisSnapshotKeys.hash(Self.key), token: dropped.token)
            let metaBytes = try #require(try await redis.client.send(["GET", meta]).bytes)
            try await redis.client.send(["DEL", meta])
            try await redis.client.send(["RPUSH", meta, "not a snapshot"])

            await store.supersede(route: "objects", retention: .seconds(30))
            #expect(!store.drops.pending.isPending("objects"))
            #expect(store.drops.pending.failedDrops.isEmpty, "not replayed: the drop itself was taken")
            #expect(try await redis.newestToken(for: Self.key) == nil)
            #expect(try await redis.drops.dropGeneration(route: "objects") == 1)
            #expect(store.health.isAvailable)
            #expect(!store.dropSync.retires.isEmpty)
            #expect(try await redis.superseded(Self.key, token: dropped.token) == nil, "not retired yet")

            try await redis.client.send(["DEL", meta])
            try await redis.client.send([Array("SET".utf8), Array(meta.utf8), metaBytes])
            await store.dropSync.retryRetires()
            #expect(store.dropSync.retires.isEmpty)
            let marked = try #require(try await redis.superseded(Self.key, token: dropped.token))
            #expect(marked.left <= .seconds(30) && marked.left > .zero)
            #expect(marked.atMilliseconds <= wallClock())
        }
    }

    /// A fill or load for a key of a config a reload replaced (its route's list settings
    /// changed, so the variant differs) neither writes to Redis nor loads from it: it would
    /// store its list with the new config's sort, or build the new order on an old list.
    @Test func aKeyOfAReplacedConfigIsNeitherSharedNorLoaded() async throws {
        try await RedisServer.with { server in
            let (store, redis) = try store(server)
            var old = Self.key
            old.variant = "0123456789abcdef"
            let v1 = try await shared("v1", in: redis, for: old)
            #expect(await store.current(old) == nil, "not loaded under the new config's shape")

            let v2 = try snapshot(try stored("v2"), in: store)
            let installed = await FillLock.$fillDropGeneration.withValue(0) {
                await store.install(v2, for: old, retention: .zero, staleFor: .zero)
            }
            #expect(installed, "kept locally")
            #expect(store.fillLock.takeWrite(old) == nil, "no copy to Redis started")
            #expect(try await redis.newestToken(for: old) == v1.token)
        }
    }

    /// A drop Redis keeps refusing after an outage (it came back as a read-only replica) keeps
    /// its own route off Redis, but no longer keeps the whole store unavailable.
    @Test func aDropRefusedAfterAnOutageKeepsOnlyItsRouteOffRedis() async throws {
        try await RedisServer.with { server in
            let (store, redis) = try store(server)
            store.health.failed(.ping, .unexpectedReply("test: outage"))
            #expect(!store.health.isAvailable)
            await store.supersede(route: "objects", retention: .zero)
            #expect(store.drops.pending.failedDrops.keys.sorted() == ["objects"])

            try await redis.client.send(["REPLICAOF", "127.0.0.1", "1"])
            #expect(await !store.dropSync.replay(), "refused")
            #expect(store.health.isAvailable)
            #expect(store.drops.pending.isPending("objects"))
            try await redis.client.send(["REPLICAOF", "NO", "ONE"])
            #expect(await store.dropSync.replay())
            #expect(!store.drops.pending.isPending("objects"))
        }
    }

    /// A replay that loses Redis partway (here: Redis closes the connection on the second
    /// drop's answer) keeps what went: the first drop is taken and its retention step waits for
    /// the probe; the second stays pending and failed, and the store stays unavailable.
    @Test func aReplayCutShortKeepsTheRetentionStepsOfTheDropsThatWent() async throws {
        try await RedisServer.with { server in
            let (store, redis) = try store(server)
            let dropped = try await shared("v1", in: redis)
            store.health.failed(.ping, .unexpectedReply("test: outage"))
            await store.supersede(route: "objects", retention: .seconds(30))
            await store.supersede(route: "large", retention: .seconds(30))
            #expect(Set(store.drops.pending.failedDrops.keys) == ["objects", "large"])
            // The second drop's script answers with the token a pointer names: 2 MiB of it, past
            // the output limit set here, so Redis closes the connection instead of answering.
            let setup = RedisClient(server.configuration())
            try await setup.send(["SET", "t:large-pointer", String(repeating: "x", count: 2 << 20)])
            try await setup.send(["ZADD", redis.keys.routeKeys("large"), "1", "t:large-pointer"])
            try await setup.send(["CONFIG", "SET", "client-output-buffer-limit", "normal 1mb 0 0"])

            #expect(await !store.dropSync.replay())
            #expect(!store.drops.pending.isPending("objects"), "taken")
            #expect(store.drops.pending.failedDrops.keys.sorted() == ["large"])
            #expect(!store.health.isAvailable)
            let waiting = store.dropSync.retires.takeAll()
            #expect(waiting.map { $0.snapshots.map(\.token) } == [[dropped.token]])
            #expect(try await setup.send(["GET", redis.keys.newest(Self.key)]).string == nil)
        }
    }

    /// What happened to the route while the events subscription was down, or before.
    enum WhileUnsubscribed: CaseIterable {
        /// Nothing: Redis's drop generation of the route did not move.
        case nothing
        /// Another replica's drop reached Redis (its event was not heard).
        case droppedElsewhere
        /// A drop was heard before the subscription broke: the generation no longer vouches.
        case dropHeardBefore
    }

    /// When the events subscription is back, the routes whose drop generation in Redis moved since
    /// it last came up (or that it cannot vouch for) are treated as dropped: their local copies
    /// are retained and their fills forgotten (they install nothing), as after a drop it heard.
    /// A route whose count did not move keeps its copy current and its fills.
    @Test(arguments: WhileUnsubscribed.allCases)
    func aResubscriptionForgetsTheRoutesDroppedMeanwhile(_ happened: WhileUnsubscribed) async throws {
        try await RedisServer.with { server in
            let (store, redis) = try store(server)
            let list = try await shared("v1", in: redis)
            #expect(await store.current(Self.key)?.token == list.token)
            let forgotten = Mutex<[String]>([])
            store.onRemoteDrop { route in forgotten.withLock { $0.append(route) } }
            await store.resubscribed()
            #expect(forgotten.withLock { $0 }.isEmpty, "nothing was lost")

            if happened == .dropHeardBefore {
                store.receive(
                    SharedStoreEvent(
                        kind: .dropped, origin: "another replica", route: "objects", retentionMilliseconds: 0
                    )
                    .encoded)
            }
            store.subscriptionFailed(.refused("test: subscription lost"))
            if happened == .droppedElsewhere {
                try await redis.drops.drop(route: "objects", retention: .zero, atMilliseconds: wallClock())
            }
            await store.resubscribed()
            let expected: [String] =
                switch happened {
                case .nothing: []
                case .droppedElsewhere: ["objects"]
                case .dropHeardBefore: ["objects", "objects"]
                }
            #expect(forgotten.withLock { $0 } == expected)
            #expect((store.local.current(Self.key) != nil) == (happened == .nothing))
        }
    }
}
