import FolioEngine
import Synchronization
import Testing

@testable import FolioGateway

/// `SnapshotCache` over a recording store (a pure unit: no upstream, no server): what a fill's
/// install does when a drop or a reload comes while the store is installing (just before the
/// list lands, so only the cache's check after the install can catch it).
@Suite("SnapshotCache installs")
struct SnapshotCacheTests {
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
    static let terms = SnapshotCache.FillTerms(timeout: .seconds(5), retention: .seconds(10), staleFor: .zero)

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
        let cache = SnapshotCache(store: store, now: { ContinuousClock.now })
        store.duringInstall.withLock {
            $0 = {
                switch interruption {
                case .drop:
                    await cache.drop(route: "objects", retention: .seconds(10))
                case .reloadChangingTheRoute:
                    cache.retire(removing: ["objects"])
                    await store.remove(route: "objects")
                case .reloadKeepingTheRoute:
                    cache.retire(removing: ["others"])
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

    /// A reload's two gateways share their drop generations: a drop that reaches the replaced
    /// gateway (a request still finishing there) stops the fill the gateway in force began
    /// before it (its list is served to its waiters only), and a request after the drop starts
    /// a fill of its own instead of joining that one.
    @Test func aDropOnTheReplacedGatewayStopsTheEarlierFillOfTheGatewayInForce() async throws {
        let store = RecordingStore()
        let generations = DropGenerations()
        let replaced = SnapshotCache(store: store, generations: generations, now: { ContinuousClock.now })
        let inForce = SnapshotCache(store: store, generations: generations, now: { ContinuousClock.now })
        replaced.retire()
        let before = try Self.snapshot()
        let after = try Self.snapshot(#"[{"id":3}]"#)
        let fetching = Latch()
        let release = Latch()
        let first = Task {
            await inForce.fill(Self.key, previous: nil, terms: Self.terms) { _ in
                fetching.open()
                await release.wait()
                return .stored(before)
            }
        }
        await fetching.wait()
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
        guard case .success(.uncacheable(let served)) = earlier else {
            Issue.record("the fill from before the drop was installed: \(earlier)")
            return
        }
        #expect(served === before)
        #expect(await store.current(Self.key) === after)
    }
}
