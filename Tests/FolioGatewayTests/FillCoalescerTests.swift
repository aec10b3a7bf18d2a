import FolioConfiguration
import FolioEngine
import Synchronization
import Testing

@testable import FolioGateway

/// `FillCoalescer` over a recording store (a pure unit: no upstream, no server): what a fill's
/// install does when a drop or a reload comes while the store is installing (just before the
/// list lands, so only the cache's check after the install can catch it).
@Suite("FillCoalescer installs")
struct FillCoalescerTests {
    /// A memory store that records route drops and removals and runs `duringInstall` inside
    /// `install`, before the list lands.
    final class RecordingStore: SnapshotStore {
        let memory = MemorySnapshotStore(maxBytes: 1 << 30, now: { ContinuousClock.now })
        let superseded = Mutex<[String]>([])
        let removed = Mutex<[String]>([])
        let duringInstall = Mutex<(@Sendable () async -> Void)?>(nil)

        func current(_ key: CacheKey) async -> Snapshot? { memory.current(key) }
        func retained(_ key: CacheKey, token: String) async -> RetainedSnapshot? {
            memory.retained(key, token: token)
        }
        func install(_ snapshot: Snapshot, for key: CacheKey, retention: Duration, staleFor: Duration) async -> Bool {
            if let hook = duringInstall.withLock({ $0 }) { await hook() }
            return await memory.install(snapshot, for: key, retention: retention, staleFor: staleFor)
        }
        func supersede(route: String, retention: Duration) async {
            superseded.withLock { $0.append(route) }
            memory.supersede(route: route, retention: retention)
        }
        func remove(route: String) async {
            removed.withLock { $0.append(route) }
            memory.remove(route: route)
        }
        func recount(_ snapshot: Snapshot, for key: CacheKey) async { memory.recount(snapshot, for: key) }
        func statistics() async -> SnapshotStoreStatistics { memory.statistics() }
    }

    static let key = CacheKey(route: "objects", upstreamURL: "http://upstream.test/objects", variant: "v")
    static let terms = FillCoalescer.FillTerms(timeout: .seconds(5), retention: .seconds(10), staleFor: .zero)

    static func snapshot(_ body: String = #"[{"id":1},{"id":2}]"#) throws -> Snapshot {
        var indexer = ListIndexer(items: .root, limits: IndexLimits(), sort: [])
        try indexer.append(Array(body.utf8))
        _ = try indexer.endBody()
        let (list, token) = try indexer.finish()
        let now = ContinuousClock.now
        return Snapshot(
            list: list, token: token, storedAt: now, freshUntil: now + .seconds(60),
            indexes: SnapshotIndexes(list: list, sectionKey: nil))
    }

    /// The `objects` route, as configured before a reload, or changed by one.
    static func routes(changed: Bool = false) throws -> [Configuration.Route] {
        let yaml = gatewayYAML(upstream: "http://upstream.test/objects", route: changed ? "pageSize: 5" : "")
        return try ConfigurationLoader.parse(yaml: yaml, file: "cache.yaml").routes
    }

    /// A fill of `key` by `cache` whose fetch has begun, and returns `snapshot` once `release`
    /// opens.
    static func fillOnHold(
        _ cache: FillCoalescer, returning snapshot: Snapshot, until release: Latch
    ) async -> Task<(result: Result<FillResult, any Error>, role: FillCoalescer.Role), Never> {
        let fetching = Latch()
        let fill = Task {
            await cache.fill(Self.key, previous: nil, terms: Self.terms) { _ in
                fetching.open()
                await release.wait()
                return .stored(snapshot)
            }
        }
        await fetching.wait()
        return fill
    }

    enum Interruption: CaseIterable {
        /// `POST /purge` (or an unsafe method's 2xx) of the route.
        case drop
        /// A reload that changed the route replaced the gateway this cache belongs to.
        case reloadChangingTheRoute
        /// A reload that kept the route as it was.
        case reloadKeepingTheRoute
    }

    /// A drop during the store's install must not leave the list current (the drop is made
    /// again); nor may a reload that changed the route (its removal is made again, locally).
    /// Neither reload becomes a drop: with a shared store that would purge the route on every
    /// replica. A route the reload kept keeps the list.
    @Test(arguments: Interruption.allCases)
    func whatCameDuringTheInstallIsMadeAgainButAReloadIsNoDrop(_ interruption: Interruption) async throws {
        let store = RecordingStore()
        let cache = FillCoalescer(store: store, routes: try Self.routes(), now: { ContinuousClock.now })
        let changed = try Self.routes(changed: true)
        let unchanged = try Self.routes()
        store.duringInstall.withLock {
            $0 = {
                switch interruption {
                case .drop:
                    await cache.drop(route: "objects", retention: .seconds(10))
                case .reloadChangingTheRoute:
                    _ = cache.ledger.enter(changed)
                    await store.remove(route: "objects")
                case .reloadKeepingTheRoute:
                    _ = cache.ledger.enter(unchanged)
                }
            }
        }
        let snapshot = try Self.snapshot()
        let (result, role) = await cache.fill(Self.key, previous: nil, terms: Self.terms) { _ in .stored(snapshot) }
        #expect(role == .leader)
        guard case .success(.stored) = result else {
            Issue.record("not stored: \(result)")
            return
        }
        let superseded = store.superseded.withLock { $0 }
        let removed = store.removed.withLock { $0 }
        switch interruption {
        case .drop:
            #expect(superseded == ["objects", "objects"], "the drop, then again after the install")
            #expect(removed.isEmpty)
            #expect(await store.current(Self.key) == nil)
        case .reloadChangingTheRoute:
            #expect(superseded.isEmpty)
            #expect(removed == ["objects", "objects"], "the reload's, then again after the install")
            #expect(await store.current(Self.key) == nil)
        case .reloadKeepingTheRoute:
            #expect(superseded.isEmpty && removed.isEmpty)
            #expect(await store.current(Self.key) === snapshot)
        }
    }

    /// A reload's two gateways share their fill ledger (its drop generations): a drop that reaches the replaced
    /// gateway (a request still finishing there) stops the fill the gateway in force began
    /// before it (its list is served to its waiters only), and a request after the drop starts
    /// a fill of its own instead of joining that one.
    @Test func aDropOnTheReplacedGatewayStopsTheEarlierFillOfTheGatewayInForce() async throws {
        let store = RecordingStore()
        let ledger = FillLedger()
        let replaced = FillCoalescer(
            store: store, ledger: ledger, routes: try Self.routes(), now: { ContinuousClock.now })
        let inForce = FillCoalescer(
            store: store, ledger: ledger, routes: try Self.routes(), now: { ContinuousClock.now })
        let before = try Self.snapshot()
        let after = try Self.snapshot(#"[{"id":3}]"#)
        let release = Latch()
        let first = await Self.fillOnHold(inForce, returning: before, until: release)
        await replaced.drop(route: "objects", retention: .seconds(10))
        // Should the next request join the first fill (the failure checked below), the first
        // must still end for the test to report it.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(2))
            release.open()
        }
        defer { watchdog.cancel() }

        let (second, role) = await inForce.fill(Self.key, previous: nil, terms: Self.terms) { _ in .stored(after) }
        #expect(role == .leader, "a request after the drop joined a fill that began before it")
        guard case .success(.stored(let stored)) = second else {
            Issue.record("the fill after the drop was not stored: \(second)")
            return
        }
        #expect(stored === after)
        release.open()
        let (earlier, _) = await first.value
        guard case .success(.unstored(let served)) = earlier else {
            Issue.record("the fill from before the drop was installed: \(earlier)")
            return
        }
        #expect(served === before)
        #expect(await store.current(Self.key) === after)
    }

    /// A fill the replaced gateway began: after a reload that left its route as it was, the
    /// new gateway's requests join it and its list is installed; after one that changed the
    /// route, they start a fill of their own and the old list is served to its waiters only.
    @Test(arguments: [false, true])
    func aReloadThatKeepsTheRouteKeepsItsFill(changing: Bool) async throws {
        let store = RecordingStore()
        let ledger = FillLedger()
        let replaced = FillCoalescer(store: store, ledger: ledger, routes: try Self.routes(), now: { .now })
        let before = try Self.snapshot()
        let after = try Self.snapshot(#"[{"id":3}]"#)
        let release = Latch()
        let first = await Self.fillOnHold(replaced, returning: before, until: release)
        let inForce = FillCoalescer(
            store: store, ledger: ledger, routes: try Self.routes(changed: changing), now: { .now })
        // Joins or starts a fill before it returns.
        let secondFetches = Mutex(0)
        inForce.refreshInBackground(Self.key, previous: before, terms: Self.terms) { _ in
            secondFetches.withLock { $0 += 1 }
            return .stored(after)
        }
        release.open()
        let (earlier, _) = await first.value
        if changing {
            try await waitUntil("the new gateway's fill was installed") { await store.current(Self.key) === after }
            #expect(secondFetches.withLock { $0 } == 1)
            guard case .success(.unstored(let served)) = earlier else {
                Issue.record("the fill from before the change was installed: \(earlier)")
                return
            }
            #expect(served === before)
        } else {
            #expect(secondFetches.withLock { $0 } == 0, "the new gateway started a second fill")
            guard case .success(.stored(let stored)) = earlier else {
                Issue.record("the fill of the kept route was not installed: \(earlier)")
                return
            }
            #expect(stored === before)
            #expect(await store.current(Self.key) === before)
        }
    }
}
