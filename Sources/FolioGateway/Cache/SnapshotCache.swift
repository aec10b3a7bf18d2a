import FolioEngine
import Synchronization

/// In-memory snapshot store with coalesced fills.
///
/// Holds the newest snapshot of every cache key and the superseded ones that still answer
/// pinned links (`snapshotRetention`). A fill runs as its own task, so the request that started
/// it may go away without failing the other waiters; the task installs its result itself.
final class SnapshotCache: Sendable {
    /// How a caller took part in a fill.
    enum Role: Sendable { case leader, collapsed }

    private struct Entry {
        var current: Snapshot?
        var fill: Task<FillResult, any Error>?
        /// Bumped by drops, so a fill that started before a drop does not resurrect old data.
        var generation = 0
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
    }

    private let state = Mutex(State())
    let now: @Sendable () -> ContinuousClock.Instant
    /// Called with the number of snapshots removed to stay within `cache.maxBytes` (metrics).
    let onEviction: @Sendable (_ count: Int) -> Void

    init(
        now: @escaping @Sendable () -> ContinuousClock.Instant,
        onEviction: @escaping @Sendable (_ count: Int) -> Void = { _ in }
    ) {
        self.now = now
        self.onEviction = onEviction
    }

    /// The newest snapshot of `key`, fresh or not.
    func current(_ key: CacheKey) -> Snapshot? {
        state.withLock { $0.entries[key]?.current }
    }

    /// A superseded snapshot of `key` that is still retained, with when it was superseded.
    func retained(_ key: CacheKey, token: String) -> (snapshot: Snapshot, supersededAt: ContinuousClock.Instant)? {
        let now = self.now()
        return state.withLock { state in
            let rkey = RetainedKey(key: key, token: token)
            guard let r = state.retained[rkey] else { return nil }
            if r.supersededAt + r.retention < now {
                state.retained[rkey] = nil
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
        state.withLock { state in
            if let task = state.entries[key]?.fill { return (task, .collapsed) }
            let previous = state.entries[key]?.current
            let generation = state.entries[key]?.generation ?? 0
            let task = Task<FillResult, any Error> {
                do {
                    let result = try await fetch(previous)
                    self.finishFill(key, result: result, generation: generation, retention: retention)
                    return result
                } catch {
                    self.finishFill(key, result: nil, generation: generation, retention: retention)
                    throw error
                }
            }
            state.entries[key, default: Entry()].fill = task
            return (task, .leader)
        }
    }

    private func finishFill(_ key: CacheKey, result: FillResult?, generation: Int, retention: Duration) {
        let now = self.now()
        state.withLock { state in
            var entry = state.entries[key, default: Entry()]
            entry.fill = nil
            if case .stored(let snapshot) = result, entry.generation == generation {
                if let old = entry.current, old.token != snapshot.token {
                    Self.retain(old, key: key, at: now, retention: retention, in: &state)
                }
                entry.current = snapshot
            }
            state.entries[key] = entry
            Self.prune(&state, now: now)
        }
    }

    /// Drops the newest snapshot of every key of `route` (unsafe method, purge); the dropped
    /// snapshots keep answering pinned links for `retention`.
    func drop(route: String, retention: Duration) {
        let now = self.now()
        state.withLock { state in
            for (key, var entry) in state.entries where key.route == route {
                if let old = entry.current {
                    Self.retain(old, key: key, at: now, retention: retention, in: &state)
                }
                entry.current = nil
                entry.generation += 1
                state.entries[key] = entry
            }
            Self.prune(&state, now: now)
        }
    }

    /// Number of snapshots held (current and retained), for tests and metrics.
    var snapshotCount: Int {
        state.withLock { state in
            state.entries.values.count(where: { $0.current != nil }) + state.retained.count
        }
    }

    /// What `/metrics` reports; computed at scrape time so requests pay nothing for it.
    var statistics: CacheStatistics {
        state.withLock { state in
            var stats = CacheStatistics()
            for entry in state.entries.values {
                if let current = entry.current {
                    stats.snapshots += 1
                    stats.bytes += current.retainedBytes
                }
                if entry.fill != nil { stats.fillsInFlight += 1 }
            }
            for retained in state.retained.values {
                stats.snapshots += 1
                stats.bytes += retained.snapshot.retainedBytes
            }
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
        state.withLock { state in
            for (key, snapshot) in taken.entries {
                state.entries[key, default: Entry()].current = snapshot
            }
            state.retained.merge(taken.retained) { mine, _ in mine }
        }
    }

    private static func retain(
        _ snapshot: Snapshot, key: CacheKey, at now: ContinuousClock.Instant, retention: Duration, in state: inout State
    ) {
        guard retention > .zero else { return }
        state.retained[RetainedKey(key: key, token: snapshot.token)] = Retained(
            snapshot: snapshot, supersededAt: now, retention: retention)
    }

    private static func prune(_ state: inout State, now: ContinuousClock.Instant) {
        state.retained = state.retained.filter { $0.value.supersededAt + $0.value.retention >= now }
    }
}

/// Counts over every snapshot a cache holds.
struct CacheStatistics: Sendable, Equatable {
    var snapshots = 0
    var bytes = 0
    var fillsInFlight = 0
}

/// What a fill produced.
enum FillResult: Sendable {
    /// A list that was stored as the key's newest snapshot (or renewed the current one).
    case stored(Snapshot)
    /// A list that must not be stored or shared (uncacheable answer); only its leader uses it.
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
