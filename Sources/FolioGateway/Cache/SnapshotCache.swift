import FolioConfiguration
import FolioEngine
import Synchronization

/// Coalesced fills in front of a `SnapshotStore`.
///
/// At most one fill per cache key runs at a time; concurrent misses wait for it. A fill runs
/// as its own task, so the request that started it may go away without failing the other
/// waiters; the task installs its result in the store itself. Drops (unsafe methods, purge)
/// bump a route's generation (`DropGenerations`, shared across reloads) and a reload that
/// changes a route moves its config epoch (`FillRegistry`, shared too), so a fill that started
/// before them never installs what they removed, and a request after them starts a fill of its
/// own instead of joining one that began before. A reload that leaves a route as it was moves
/// nothing: the new gateway's requests join the fills the old one started.
final class SnapshotCache: Sendable {
    /// How a caller took part in a fill.
    enum Role: Sendable { case leader, collapsed }

    let store: any SnapshotStore
    /// The other replicas' fills, when the store is shared: at most one fill per key among
    /// them all.
    let coordination: (any FillCoordination)?
    let now: @Sendable () -> ContinuousClock.Instant
    /// Counts this cache's fill tasks, shared with the gateways before and after it (reloads).
    let runningFills: RunningFills
    /// Drops per route, shared with the gateways before and after it (reloads).
    let generations: DropGenerations
    /// Fills in flight and routes' config epochs, shared with the gateways before and after it.
    let registry: FillRegistry
    /// The config epoch of each of this gateway's routes (`FillRegistry.enter`).
    private let epochs: [String: Int]

    init(
        store: any SnapshotStore, runningFills: RunningFills = RunningFills(),
        generations: DropGenerations = DropGenerations(), registry: FillRegistry = FillRegistry(),
        routes: [Configuration.Route] = [], now: @escaping @Sendable () -> ContinuousClock.Instant
    ) {
        self.store = store
        self.coordination = store as? any FillCoordination
        self.runningFills = runningFills
        self.generations = generations
        self.registry = registry
        self.epochs = registry.enter(routes)
        self.now = now
    }

    /// How long a fill may take and how its list is kept: the snapshot it supersedes answers
    /// pinned links for `retention`; a shared store keeps the list `staleFor` past its freshness.
    struct FillTerms: Sendable {
        var timeout: Duration
        var retention: Duration
        var staleFor: Duration
    }

    /// The newest snapshot of `key`, fresh or not; marks the key as used.
    func current(_ key: CacheKey) async -> Snapshot? {
        await store.current(key)
    }

    /// A superseded snapshot of `key` that is still retained.
    func retained(_ key: CacheKey, token: String) async -> RetainedSnapshot? {
        await store.retained(key, token: token)
    }

    /// Joins the fill in flight for `key`, or starts one with `fetch`.
    ///
    /// `previous` is the key's current snapshot as the caller just read it (revalidated, or
    /// kept when the refill mints the same token); `retention` is how long the snapshot this
    /// fill supersedes keeps answering pinned links.
    func fill(
        _ key: CacheKey,
        previous: Snapshot?,
        terms: FillTerms,
        fetch: @escaping @Sendable (_ previous: Snapshot?) async throws -> FillResult
    ) async -> (result: Result<FillResult, any Error>, role: Role) {
        let (task, role) = startFill(key, previous: previous, terms: terms, fetch: fetch)
        return (await task.result, role)
    }

    /// Starts a fill unless one is in flight; does not wait (stale-while-revalidate).
    func refreshInBackground(
        _ key: CacheKey,
        previous: Snapshot,
        terms: FillTerms,
        fetch: @escaping @Sendable (_ previous: Snapshot?) async throws -> FillResult
    ) {
        _ = startFill(key, previous: previous, terms: terms, fetch: fetch)
    }

    private func startFill(
        _ key: CacheKey,
        previous: Snapshot?,
        terms: FillTerms,
        fetch: @escaping @Sendable (_ previous: Snapshot?) async throws -> FillResult
    ) -> (Task<FillResult, any Error>, Role) {
        registry.state.withLock { state in
            // Read under the lock (`DropGenerations` never takes it): a caller that read an
            // older generation must not replace a fill a later caller started after a drop.
            let generation = generations.value(of: key.route)
            let epoch = epochs[key.route] ?? state.epoch(of: key.route)
            if let fill = state.fills[key], fill.generation == generation, fill.epoch == epoch {
                return (fill.task, .collapsed)
            }
            let coordination = self.coordination
            let id = state.nextFillID
            state.nextFillID &+= 1
            // Counted before the task exists, so its `ended()` can only come after.
            runningFills.started()
            let task = Task<FillResult, any Error> {
                defer {
                    self.registry.state.withLock { state in
                        // A drop or reload may have forgotten this fill, and a later one taken
                        // its place.
                        if state.fills[key]?.id == id { state.fills[key] = nil }
                    }
                    self.runningFills.ended()
                }
                let run: @Sendable () async throws -> FillResult = {
                    let result = try await fetch(previous)
                    return await self.install(
                        result, key: key, stamp: Stamp(generation: generation, epoch: epoch), terms: terms)
                }
                guard let coordination else { return try await run() }
                switch try await coordination.coordinate(key, timeout: terms.timeout, fill: run) {
                case .filled(let result): return result
                case .shared(let snapshot, let waited): return .shared(snapshot, waited: waited)
                }
            }
            state.fills[key] = FillRegistry.Fill(id: id, generation: generation, epoch: epoch, task: task)
            return (task, .leader)
        }
    }

    /// Installs a fill's list and returns what the waiters get: a list the store refuses
    /// (larger than the whole cache), or one a drop or reload made obsolete while it was
    /// fetched, is handed back as unstored (served to the requests of this fill, never stored).
    private func install(_ result: FillResult, key: CacheKey, stamp: Stamp, terms: FillTerms) async -> FillResult {
        switch result {
        case .revalidated(_, renews: false):
            return result
        case .stored(let snapshot), .revalidated(let snapshot, renews: true):
            guard missed(key, since: stamp) == nil else { return .unstored(snapshot) }
            guard await store.install(snapshot, for: key, retention: terms.retention, staleFor: terms.staleFor) else {
                return .unstored(snapshot)
            }
            // A drop that ran while the store was installing may have missed this snapshot: it
            // is made again. So may a reload that removed this route (its config changed): the
            // removal is made again, locally only. A reload is no drop: with a shared store, a
            // drop here would reach every replica.
            switch missed(key, since: stamp) {
            case .drop: await store.supersede(route: key.route, retention: terms.retention)
            case .removal: await store.remove(route: key.route)
            case nil: break
            }
            return result
        case .uncacheable, .unstored, .upstream, .shared:
            return result
        }
    }

    /// A fill's route's drop generation and config epoch when it started.
    private struct Stamp {
        var generation: Int
        var epoch: Int
    }

    /// What came since a fill began: a drop, or a reload that changed or removed its route.
    private enum Missed { case drop, removal }

    private func missed(_ key: CacheKey, since stamp: Stamp) -> Missed? {
        if generations.value(of: key.route) != stamp.generation { return .drop }
        if registry.epoch(of: key.route) != stamp.epoch { return .removal }
        return nil
    }

    /// Drops the newest snapshot of every key of `route` (unsafe method, purge); the dropped
    /// snapshots keep answering pinned links for `retention`.
    func drop(route: String, retention: Duration) async {
        forgetFills(route: route)
        await store.supersede(route: route, retention: retention)
    }

    /// Another replica dropped `route`: fills of this replica that started before must not
    /// install what the drop removed (the store already dropped its local copies).
    func droppedElsewhere(route: String) {
        forgetFills(route: route)
    }

    /// Bumps `route`'s generation, on every gateway of this server: its fills in flight finish
    /// for the requests that joined them, but install nothing, and no later request joins them.
    private func forgetFills(route: String) {
        generations.bump(route)
    }

    /// Counts orders and sections a request built on `snapshot` against the bound.
    func recount(_ snapshot: Snapshot, for key: CacheKey) async {
        await store.recount(snapshot, for: key)
    }

    /// Fills running now (collapsed waiters share one), those a drop forgot and those of
    /// replaced gateways included.
    var fillsInFlight: Int { runningFills.value }

    /// What `/metrics` reports; computed at scrape time so requests pay nothing for it.
    func statistics() async -> CacheStatistics {
        CacheStatistics(store: await store.statistics(), fillsInFlight: fillsInFlight)
    }
}

/// Counts over every snapshot a cache holds and the fills it runs.
struct CacheStatistics: Sendable, Equatable {
    var store: SnapshotStoreStatistics
    var fillsInFlight: Int

    var snapshots: Int { store.snapshots }
    /// Bytes counted against `cache.maxBytes`.
    var bytes: Int { store.bytes }
    var evictions: Int { store.evictions }
}
