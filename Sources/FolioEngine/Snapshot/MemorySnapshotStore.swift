import Synchronization

/// The default `SnapshotStore`: snapshots in this process's memory, within `maxBytes`.
///
/// Everything a snapshot keeps alive is counted (list bytes, element index, sort orders,
/// sections, filters; orders built after installing through `recount`). Over the bound, what
/// requests built on snapshots goes first (`Snapshot.shed`), then retained snapshots,
/// oldest superseded first (they only answer pinned links), then current ones, least recently
/// used first; the snapshot being installed or recounted stays unless it alone is over the
/// bound. A snapshot larger than the whole bound is refused.
public final class MemorySnapshotStore: SnapshotStore {
    private struct Entry {
        var snapshot: Snapshot
        /// What was counted for it: updated only under the lock, so adding and removing it
        /// from the total always balance, however its indexes grow meanwhile.
        var bytes: Int
        var lastUsed: ContinuousClock.Instant
    }

    private struct RetainedKey: Hashable {
        var key: CacheKey
        var token: String
    }

    private struct Retained {
        var snapshot: Snapshot
        var bytes: Int
        var supersededAt: ContinuousClock.Instant
        var retention: Duration
    }

    private struct State {
        var maxBytes: Int
        var entries: [CacheKey: Entry] = [:]
        var retained: [RetainedKey: Retained] = [:]
        var bytes = 0
        var evictions = 0
    }

    private let state: Mutex<State>
    private let now: @Sendable () -> ContinuousClock.Instant
    /// Called with the number of snapshots removed to stay within the bound (metrics).
    private let onEviction: @Sendable (_ count: Int) -> Void

    public init(
        maxBytes: Int,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        onEviction: @escaping @Sendable (_ count: Int) -> Void = { _ in }
    ) {
        self.state = Mutex(State(maxBytes: maxBytes))
        self.now = now
        self.onEviction = onEviction
    }

    public func current(_ key: CacheKey) -> Snapshot? {
        let now = self.now()
        return state.withLock { state in
            // One hash of the key (its URL and vary values), not three: every cached page asks.
            guard let index = state.entries.index(forKey: key) else { return nil }
            state.entries.values[index].lastUsed = now
            return state.entries.values[index].snapshot
        }
    }

    /// Everything this store holds is held in memory.
    public func currentIfHeld(_ key: CacheKey) -> Snapshot? { current(key) }

    public func retained(_ key: CacheKey, token: String) -> RetainedSnapshot? {
        let now = self.now()
        return state.withLock { state in
            let rkey = RetainedKey(key: key, token: token)
            guard let r = state.retained[rkey] else { return nil }
            if r.supersededAt + r.retention < now {
                Self.removeRetained(rkey, in: &state)
                return nil
            }
            return RetainedSnapshot(snapshot: r.snapshot, supersededAt: r.supersededAt)
        }
    }

    public func install(_ snapshot: Snapshot, for key: CacheKey, retention: Duration, staleFor: Duration = .zero)
        -> Bool
    {
        let bytes = snapshot.retainedBytes
        let now = self.now()
        return state.withLock { state in
            guard bytes <= state.maxBytes else { return false }
            if let old = state.entries.removeValue(forKey: key) {
                state.bytes -= old.bytes
                if old.snapshot.token != snapshot.token {
                    Self.retain(old, key: key, at: now, retention: retention, in: &state)
                }
            }
            // A pinned copy of the same token is now the current list again.
            Self.removeRetained(RetainedKey(key: key, token: snapshot.token), in: &state)
            state.entries[key] = Entry(snapshot: snapshot, bytes: bytes, lastUsed: now)
            state.bytes += bytes
            Self.prune(&state, now: now)
            evict(&state, keeping: key)
            return true
        }
    }

    /// Keeps `snapshot` as a superseded snapshot of `key` (superseded at `supersededAt`) for
    /// `retention`: a shared store's copy of a list another replica superseded.
    public func retain(
        _ snapshot: Snapshot, for key: CacheKey, supersededAt: ContinuousClock.Instant, retention: Duration
    ) {
        let now = self.now()
        let bytes = snapshot.retainedBytes
        state.withLock { state in
            guard bytes <= state.maxBytes, retention > .zero else { return }
            let entry = Entry(snapshot: snapshot, bytes: bytes, lastUsed: now)
            Self.retain(entry, key: key, at: supersededAt, retention: retention, in: &state)
            Self.prune(&state, now: now)
            evict(&state, keeping: nil)
        }
    }

    public func supersede(route: String, retention: Duration) {
        let now = self.now()
        state.withLock { state in
            for (key, entry) in state.entries where key.route == route {
                state.entries[key] = nil
                state.bytes -= entry.bytes
                Self.retain(entry, key: key, at: now, retention: retention, in: &state)
            }
            Self.prune(&state, now: now)
            evict(&state, keeping: nil)
        }
    }

    public func remove(route: String) {
        state.withLock { state in
            for (key, entry) in state.entries where key.route == route {
                state.entries[key] = nil
                state.bytes -= entry.bytes
            }
            for rkey in state.retained.keys where rkey.key.route == route {
                Self.removeRetained(rkey, in: &state)
            }
        }
    }

    public func recount(_ snapshot: Snapshot, for key: CacheKey) {
        let bytes = snapshot.retainedBytes
        state.withLock { state in
            if let entry = state.entries[key], entry.snapshot === snapshot {
                guard bytes != entry.bytes else { return }
                state.bytes += bytes - entry.bytes
                state.entries[key]!.bytes = bytes
                evict(&state, keeping: bytes <= state.maxBytes ? key : nil)
            } else {
                let rkey = RetainedKey(key: key, token: snapshot.token)
                guard let r = state.retained[rkey], r.snapshot === snapshot, bytes != r.bytes else { return }
                state.bytes += bytes - r.bytes
                state.retained[rkey]!.bytes = bytes
                evict(&state, keeping: nil)
            }
        }
    }

    public func statistics() -> SnapshotStoreStatistics {
        state.withLock { state in
            SnapshotStoreStatistics(
                snapshots: state.entries.count + state.retained.count, bytes: state.bytes, evictions: state.evictions)
        }
    }

    public func inventory() -> [HeldSnapshot] {
        let now = self.now()
        return state.withLock { state in
            state.entries.map { HeldSnapshot(key: $0.key, snapshot: $0.value.snapshot, bytes: $0.value.bytes) }
                + state.retained.filter { $0.value.supersededAt + $0.value.retention >= now }.map {
                    HeldSnapshot(
                        key: $0.key.key, snapshot: $0.value.snapshot, bytes: $0.value.bytes,
                        supersededAt: $0.value.supersededAt)
                }
        }
    }

    /// The bound, in bytes.
    public var maxBytes: Int { state.withLock { $0.maxBytes } }

    /// Counts `bytes` of memory held outside the store (a list being loaded into it) against
    /// the bound, evicting to make room; `unreserve` gives them back.
    public func reserve(_ bytes: Int) {
        state.withLock { state in
            state.bytes += bytes
            evict(&state, keeping: nil)
        }
    }

    public func unreserve(_ bytes: Int) {
        state.withLock { $0.bytes -= bytes }
    }

    /// Changes the bound (a reloaded `cache.maxBytes`), evicting at once if it shrank.
    public func setMaxBytes(_ maxBytes: Int) {
        state.withLock { state in
            state.maxBytes = maxBytes
            evict(&state, keeping: nil)
        }
    }

    private func evict(_ state: inout State, keeping protected: CacheKey?) {
        guard state.bytes > state.maxBytes else { return }
        Self.shed(&state, keeping: protected)
        let before = state.evictions
        defer { if state.evictions > before { onEviction(state.evictions - before) } }
        for (rkey, _) in state.retained.sorted(by: { $0.value.supersededAt < $1.value.supersededAt }) {
            guard state.bytes > state.maxBytes else { return }
            Self.removeRetained(rkey, in: &state)
            state.evictions += 1
        }
        let candidates = state.entries.filter { $0.key != protected }.sorted { $0.value.lastUsed < $1.value.lastUsed }
        for (key, entry) in candidates {
            guard state.bytes > state.maxBytes else { return }
            state.entries[key] = nil
            state.bytes -= entry.bytes
            state.evictions += 1
        }
    }

    /// Over the bound, what requests built on snapshots (orders, filtered views, `?q=` answers,
    /// kept answers) goes before any snapshot: retained snapshots' first, oldest superseded first, then current
    /// ones', least recently used first, the one being installed or recounted last.
    private static func shed(_ state: inout State, keeping protected: CacheKey?) {
        for (rkey, retained) in state.retained.sorted(by: { $0.value.supersededAt < $1.value.supersededAt }) {
            guard state.bytes > state.maxBytes else { return }
            guard retained.snapshot.shed() > 0 else { continue }
            let bytes = retained.snapshot.retainedBytes
            state.bytes += bytes - retained.bytes
            state.retained[rkey]!.bytes = bytes
        }
        let current = state.entries.sorted { a, b in
            a.key == protected ? false : b.key == protected ? true : a.value.lastUsed < b.value.lastUsed
        }
        for (key, entry) in current {
            guard state.bytes > state.maxBytes else { return }
            guard entry.snapshot.shed() > 0 else { continue }
            let bytes = entry.snapshot.retainedBytes
            state.bytes += bytes - entry.bytes
            state.entries[key]!.bytes = bytes
        }
    }

    private static func retain(
        _ entry: Entry, key: CacheKey, at now: ContinuousClock.Instant, retention: Duration, in state: inout State
    ) {
        guard retention > .zero else { return }
        let rkey = RetainedKey(key: key, token: entry.snapshot.token)
        removeRetained(rkey, in: &state)
        state.retained[rkey] = Retained(
            snapshot: entry.snapshot, bytes: entry.bytes, supersededAt: now, retention: retention)
        state.bytes += entry.bytes
    }

    private static func removeRetained(_ rkey: RetainedKey, in state: inout State) {
        if let old = state.retained.removeValue(forKey: rkey) { state.bytes -= old.bytes }
    }

    /// Drops retained snapshots past their retention (on every write, so they never pile up).
    private static func prune(_ state: inout State, now: ContinuousClock.Instant) {
        for (rkey, r) in state.retained where r.supersededAt + r.retention < now {
            removeRetained(rkey, in: &state)
        }
    }
}
