import FolioEngine
import Synchronization

/// In-memory snapshot store with coalesced fills and a memory bound.
///
/// Holds the newest snapshot of every cache key and the superseded ones that still answer
/// pinned links (`snapshotRetention`). A fill runs as its own task, so the request that started
/// it may go away without failing the other waiters; the task installs its result itself.
/// `maxBytes` bounds everything held: retained snapshots are evicted first (oldest first), then
/// the least recently used current ones; a single list larger than the bound is not stored.
final class SnapshotCache: Sendable {
    /// How a caller took part in a fill.
    enum Role: Sendable { case leader, collapsed }

    private struct Entry {
        var current: Snapshot?
        var fill: Task<FillResult, any Error>?
        /// Bumped by drops, so a fill that started before a drop does not resurrect old data.
        var generation = 0
        var lastUsed: ContinuousClock.Instant
    }

    private struct RetainedKey: Hashable {
        var key: CacheKey
        var token: String
    }

    private struct Retained {
        var snapshot: Snapshot
        var supersededAt: ContinuousClock.Instant
        var retention: Duration
    }

    private struct State {
        var entries: [CacheKey: Entry] = [:]
        var retained: [RetainedKey: Retained] = [:]
        var bytes = 0
        var evictions = 0
    }

    private let state = Mutex(State())
    let now: @Sendable () -> ContinuousClock.Instant
    let maxBytes: Int
    /// Called with the number of snapshots removed to stay within `cache.maxBytes` (metrics).
    let onEviction: @Sendable (_ count: Int) -> Void

    init(
        maxBytes: Int,
        now: @escaping @Sendable () -> ContinuousClock.Instant,
        onEviction: @escaping @Sendable (_ count: Int) -> Void = { _ in }
    ) {
        self.maxBytes = maxBytes
        self.now = now
        self.onEviction = onEviction
    }

    /// The newest snapshot of `key`, fresh or not; marks the key as used.
    func current(_ key: CacheKey) -> Snapshot? {
        let now = self.now()
        return state.withLock { state in
            guard let snapshot = state.entries[key]?.current else { return nil }
            state.entries[key]?.lastUsed = now
            return snapshot
        }
    }

    /// A superseded snapshot of `key` that is still retained, with when it was superseded.
    func retained(_ key: CacheKey, token: String) -> (snapshot: Snapshot, supersededAt: ContinuousClock.Instant)? {
        let now = self.now()
        return state.withLock { state in
            let rkey = RetainedKey(key: key, token: token)
            guard let r = state.retained[rkey] else { return nil }
            if r.supersededAt + r.retention < now {
                Self.removeRetained(rkey, in: &state)
                return nil
            }
            return (r.snapshot, r.supersededAt)
        }
    }

    /// Joins the fill in flight for `key`, or starts one with `fetch`.
    ///
    /// `retention` is how long the snapshot this fill supersedes keeps answering pinned links.
    func fill(
        _ key: CacheKey,
        retention: Duration,
        fetch: @escaping @Sendable (_ previous: Snapshot?) async throws -> FillResult
    ) async -> (result: Result<FillResult, any Error>, role: Role) {
        let (task, role) = startFill(key, retention: retention, fetch: fetch)
        return (await task.result, role)
    }

    /// Starts a fill unless one is in flight; does not wait (stale-while-revalidate).
    func refreshInBackground(
        _ key: CacheKey,
        retention: Duration,
        fetch: @escaping @Sendable (_ previous: Snapshot?) async throws -> FillResult
    ) {
        _ = startFill(key, retention: retention, fetch: fetch)
    }

    private func startFill(
        _ key: CacheKey,
        retention: Duration,
        fetch: @escaping @Sendable (_ previous: Snapshot?) async throws -> FillResult
    ) -> (Task<FillResult, any Error>, Role) {
        let now = self.now()
        return state.withLock { state in
            if let task = state.entries[key]?.fill { return (task, .collapsed) }
            let previous = state.entries[key]?.current
            let generation = state.entries[key]?.generation ?? 0
            let task = Task<FillResult, any Error> {
                do {
                    let result = try await fetch(previous)
                    return self.finishFill(key, result: result, generation: generation, retention: retention) ?? result
                } catch {
                    _ = self.finishFill(key, result: nil, generation: generation, retention: retention)
                    throw error
                }
            }
            state.entries[key, default: Entry(lastUsed: now)].fill = task
            return (task, .leader)
        }
    }

    /// Installs a fill's list and returns what the waiters get: a list too large for the
    /// cache is handed back as uncacheable.
    private func finishFill(_ key: CacheKey, result: FillResult?, generation: Int, retention: Duration) -> FillResult? {
        let now = self.now()
        return state.withLock { state in
            var entry = state.entries[key, default: Entry(lastUsed: now)]
            entry.fill = nil
            var outcome = result
            switch result {
            case .stored(let snapshot), .revalidated(let snapshot):
                if snapshot.accountedBytes > maxBytes {
                    outcome = .uncacheable(snapshot)
                } else if entry.generation == generation {
                    if let old = entry.current {
                        state.bytes -= old.accountedBytes
                        if old.token != snapshot.token {
                            Self.retain(old, key: key, at: now, retention: retention, in: &state)
                        }
                    }
                    entry.current = snapshot
                    entry.lastUsed = now
                    state.bytes += snapshot.accountedBytes
                }
            default: break
            }
            state.entries[key] = entry
            Self.prune(&state, now: now)
            evict(&state, keeping: key)
            return outcome
        }
    }

    /// Drops the newest snapshot of every key of `route` (unsafe method, purge); the dropped
    /// snapshots keep answering pinned links for `retention`.
    func drop(route: String, retention: Duration) {
        let now = self.now()
        state.withLock { state in
            for (key, var entry) in state.entries where key.route == route {
                if let old = entry.current {
                    state.bytes -= old.accountedBytes
                    Self.retain(old, key: key, at: now, retention: retention, in: &state)
                }
                entry.current = nil
                entry.generation += 1
                state.entries[key] = entry
            }
            Self.prune(&state, now: now)
            evict(&state, keeping: nil)
        }
    }

    private func evict(_ state: inout State, keeping protected: CacheKey?) {
        guard state.bytes > maxBytes else { return }
        let before = state.evictions
        defer { if state.evictions > before { onEviction(state.evictions - before) } }
        // Superseded snapshots go first, oldest first: they only serve pinned links.
        for (rkey, _) in state.retained.sorted(by: { $0.value.supersededAt < $1.value.supersededAt }) {
            guard state.bytes > maxBytes else { break }
            Self.removeRetained(rkey, in: &state)
            state.evictions += 1
        }
        // Then the least recently used lists.
        let candidates = state.entries.filter { $0.key != protected && $0.value.current != nil }
            .sorted { $0.value.lastUsed < $1.value.lastUsed }
        for (key, entry) in candidates {
            guard state.bytes > maxBytes else { break }
            state.bytes -= entry.current!.accountedBytes
            state.entries[key]?.current = nil
            state.evictions += 1
        }
    }

    /// What `/metrics` reports; computed at scrape time so requests pay nothing for it.
    var statistics: CacheStatistics {
        state.withLock { state in
            var stats = CacheStatistics(bytes: state.bytes, evictions: state.evictions)
            for entry in state.entries.values {
                if entry.current != nil { stats.snapshots += 1 }
                if entry.fill != nil { stats.fillsInFlight += 1 }
            }
            stats.snapshots += state.retained.count
            return stats
        }
    }

    /// Copies the snapshots (current and retained, not fills in flight) of `routes` from
    /// `other`: a reload keeps the lists of routes whose config did not change.
    func adopt(from other: SnapshotCache, routes: Set<String>) {
        guard !routes.isEmpty else { return }
        let taken = other.state.withLock { state in
            (
                entries: state.entries.compactMap { key, entry in
                    routes.contains(key.route) ? entry.current.map { (key, $0) } : nil
                },
                retained: state.retained.filter { routes.contains($0.key.key.route) }
            )
        }
        let now = self.now()
        state.withLock { state in
            for (key, snapshot) in taken.entries where state.entries[key]?.current == nil {
                state.entries[key, default: Entry(lastUsed: now)].current = snapshot
                state.bytes += snapshot.accountedBytes
            }
            for (rkey, retained) in taken.retained where state.retained[rkey] == nil {
                state.retained[rkey] = retained
                state.bytes += retained.snapshot.accountedBytes
            }
            evict(&state, keeping: nil)
        }
    }

    private static func retain(
        _ snapshot: Snapshot, key: CacheKey, at now: ContinuousClock.Instant, retention: Duration, in state: inout State
    ) {
        guard retention > .zero else { return }
        let rkey = RetainedKey(key: key, token: snapshot.token)
        removeRetained(rkey, in: &state)
        state.retained[rkey] = Retained(snapshot: snapshot, supersededAt: now, retention: retention)
        state.bytes += snapshot.accountedBytes
    }

    private static func removeRetained(_ rkey: RetainedKey, in state: inout State) {
        if let old = state.retained.removeValue(forKey: rkey) { state.bytes -= old.snapshot.accountedBytes }
    }

    private static func prune(_ state: inout State, now: ContinuousClock.Instant) {
        for (rkey, r) in state.retained where r.supersededAt + r.retention < now {
            removeRetained(rkey, in: &state)
        }
    }
}

/// Counts over every snapshot a cache holds.
struct CacheStatistics: Sendable, Equatable {
    var snapshots = 0
    /// Bytes counted against `cache.maxBytes`.
    var bytes = 0
    var fillsInFlight = 0
    var evictions = 0
}

/// What a fill produced.
enum FillResult: Sendable {
    /// A list that was stored as the key's newest snapshot (or renewed the current one).
    case stored(Snapshot)
    /// The current snapshot, confirmed unchanged by a 304 (same token, new freshness).
    case revalidated(Snapshot)
    /// A list that must not be stored or shared (uncacheable answer, or larger than the
    /// whole cache); only its leader uses it.
    case uncacheable(Snapshot)
    /// The upstream answered an error status: passed through to the client.
    case upstream(UpstreamAnswer)
}

/// A non-2xx upstream answer, passed through with its end-to-end headers and decoded body.
struct UpstreamAnswer: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]
}
