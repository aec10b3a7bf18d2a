import FolioConfiguration
import FolioEngine

/// Coalesced fills in front of a `SnapshotStore` (docs/DESIGN.md, "Snapshots and the store").
///
/// At most one fill per cache key runs at a time; concurrent misses wait for it. A fill runs
/// as its own task, so the request that started it may go away without failing the other
/// waiters; the task installs its result in the store itself. Which fill is in flight, and
/// whether a drop or reload came since it began, is the `FillLedger`'s (shared by a reload's
/// gateways): a fill that started before a drop never installs what the drop removed, and a
/// request after it starts a fill of its own instead of joining one that began before. A
/// reload that leaves a route as it was moves nothing: the new gateway's requests join the
/// fills the old one started.
final class FillCoalescer: Sendable {
    /// How a caller took part in a fill.
    enum Role: Sendable { case leader, collapsed }

    let store: any SnapshotStore
    /// The other replicas' fills, when the store is shared: at most one fill per key among
    /// them all.
    let coordination: (any FillCoordination)?
    let now: @Sendable () -> ContinuousClock.Instant
    /// Fills in flight, drop generations and config epochs, shared with the gateways before and
    /// after this one (reloads).
    let ledger: FillLedger
    /// The config epoch of each of this gateway's routes (`FillLedger.enter`).
    private let epochs: [String: Int]
    /// Told of every new snapshot stored and every drop (the watch hub).
    let events: (any SnapshotEvents)?

    init(
        store: any SnapshotStore, ledger: FillLedger = FillLedger(), routes: [Configuration.Route] = [],
        events: (any SnapshotEvents)? = nil, now: @escaping @Sendable () -> ContinuousClock.Instant
    ) {
        self.events = events
        self.store = store
        self.coordination = store as? any FillCoordination
        self.ledger = ledger
        self.epochs = ledger.enter(routes)
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
        let coordination = self.coordination
        let (task, joined) = ledger.fill(key, epoch: epochs[key.route]) { stamp in
            Task<FillResult, any Error> {
                defer { self.ledger.ended(key, stamp) }
                let run: @Sendable () async throws -> FillResult = {
                    let result = try await fetch(previous)
                    return await self.install(result, key: key, stamp: stamp, terms: terms)
                }
                guard let coordination else { return try await run() }
                switch try await coordination.coordinate(key, timeout: terms.timeout, fill: run) {
                case .filled(let result): return result
                case .shared(let snapshot, let waited): return .shared(snapshot, waited: waited)
                }
            }
        }
        return (task, joined ? .collapsed : .leader)
    }

    /// Installs a fill's list and returns what the waiters get: a list the store refuses
    /// (larger than the whole cache), or one a drop or reload made obsolete while it was
    /// fetched, is handed back as unstored (served to the requests of this fill, never stored).
    private func install(
        _ result: FillResult, key: CacheKey, stamp: FillLedger.Stamp, terms: FillTerms
    ) async -> FillResult {
        switch result {
        case .revalidated(_, renews: false):
            return result
        case .stored(let snapshot), .revalidated(let snapshot, renews: true):
            guard ledger.missed(key, since: stamp) == nil else { return .unstored(snapshot) }
            guard await store.install(snapshot, for: key, retention: terms.retention, staleFor: terms.staleFor) else {
                return .unstored(snapshot)
            }
            // A drop that ran while the store was installing may have missed this snapshot: it
            // is made again. So may a reload that removed this route (its config changed): the
            // removal is made again, locally only. A reload is no drop: with a shared store, a
            // drop here would reach every replica.
            switch ledger.missed(key, since: stamp) {
            case .drop: await store.supersede(route: key.route, retention: terms.retention)
            case .removal: await store.remove(route: key.route)
            case nil: if case .stored(let snapshot) = result { events?.stored(key, snapshot) }
            }
            return result
        case .uncacheable, .unstored, .upstream, .shared:
            return result
        }
    }

    /// Drops the newest snapshot of every key of `route` (unsafe method, purge); the dropped
    /// snapshots keep answering pinned links for `retention`.
    func drop(route: String, retention: Duration) async {
        ledger.drop(route)
        await store.supersede(route: route, retention: retention)
        events?.dropped(route: route)
    }

    /// Another replica dropped `route`: fills of this replica that started before must not
    /// install what the drop removed (the store already dropped its local copies). On every
    /// gateway of this server: they finish for the requests that joined them, but install
    /// nothing, and no later request joins them.
    func droppedElsewhere(route: String) {
        ledger.drop(route)
        events?.dropped(route: route)
    }

    /// Counts orders and sections a request built on `snapshot` against the bound.
    func recount(_ snapshot: Snapshot, for key: CacheKey) async {
        await store.recount(snapshot, for: key)
    }

    /// Fills running now (collapsed waiters share one), those a drop forgot and those of
    /// replaced gateways included.
    var fillsInFlight: Int { ledger.running }

    /// What `/metrics` reports; computed at scrape time so requests pay nothing for it.
    func statistics() async -> CacheStatistics {
        CacheStatistics(store: await store.statistics(), fillsInFlight: fillsInFlight)
    }
}
