/// Where snapshots live between requests: the newest one of every cache key, and the
/// superseded ones that still answer pinned links (`snapshotRetention`; docs/API.md,
/// "Snapshots").
///
/// The gateway coordinates fills (one upstream fetch per key at a time) and freshness; a store
/// only keeps what it is given, within its own bound, and may forget anything at any time
/// (a forgotten current list is a miss, a forgotten retained one a 410). `MemorySnapshotStore`
/// is the default. The calls are `async` so that a shared store (Redis) can sit
/// behind the same interface and let every replica answer any pinned link
/// (`SharedSnapshotStore` in the gateway): such a store keeps the raw list bytes and the
/// metadata, re-indexes the bytes on load (tokens are content hashes, so the token checks
/// itself), and turns the clock instants into wall-clock times when it writes them.
public protocol SnapshotStore: Sendable {
    /// The newest snapshot of `key`, fresh or not; counts as a use (least recently used
    /// eviction).
    func current(_ key: CacheKey) async -> Snapshot?

    /// What `current` would return, when the store knows it without waiting (a use, like
    /// `current`); nil means "ask `current`". Lets an answer kept in memory go out on the event
    /// loop that read the request (docs/DESIGN.md, "Kept answers on the event loop").
    func currentIfHeld(_ key: CacheKey) -> Snapshot?

    /// A superseded snapshot of `key` with `token`, while it is retained.
    func retained(_ key: CacheKey, token: String) async -> RetainedSnapshot?

    /// Makes `snapshot` the newest of `key`. The snapshot it replaces, if its token differs,
    /// keeps answering its pinned links for `retention` (zero: dropped at once). `staleFor` is
    /// how long after its freshness ends it may still be served (the larger of
    /// `staleWhileRevalidate` and `staleIfError`): a shared store keeps it that long.
    ///
    /// - Returns: false when the store will not hold the snapshot (larger than the whole
    ///   store): the caller serves it once and does not share it.
    func install(_ snapshot: Snapshot, for key: CacheKey, retention: Duration, staleFor: Duration) async -> Bool

    /// Demotes the newest snapshot of every key of `route` to retained for `retention`
    /// (unsafe method, purge): the next request refills, pinned links keep working.
    func supersede(route: String, retention: Duration) async

    /// Forgets every snapshot of `route` this store holds itself, current and retained (the
    /// route's config changed, so its old lists may not be answered any more). A shared
    /// store leaves the shared copies to the replicas still on the old config: cache keys
    /// carry a variant of the settings that shape a list, so the new config never loads them.
    func remove(route: String) async

    /// Counts the orders, sections and filters built on a held snapshot since it was
    /// installed: they are part of what `cache.maxBytes` bounds.
    func recount(_ snapshot: Snapshot, for key: CacheKey) async

    /// Counts for `/metrics`.
    func statistics() async -> SnapshotStoreStatistics

    /// Every snapshot this process holds, current and retained, for the admin page's
    /// `GET /state` (docs/API.md, "Admin state"). Not for serving: it copies the list of entries.
    func inventory() async -> [HeldSnapshot]
}

extension SnapshotStore {
    /// A store that cannot list what it holds shows nothing.
    public func inventory() async -> [HeldSnapshot] { [] }

    /// A store that keeps nothing in this process's memory never answers without waiting.
    public func currentIfHeld(_ key: CacheKey) -> Snapshot? { nil }

    /// `install` for a store that keeps nothing beyond its own memory's needs.
    public func install(_ snapshot: Snapshot, for key: CacheKey, retention: Duration) async -> Bool {
        await install(snapshot, for: key, retention: retention, staleFor: .zero)
    }
}

/// A superseded snapshot, with when it was superseded (`Cache-Status` ttl of a pinned hit).
public struct RetainedSnapshot: Sendable {
    public var snapshot: Snapshot
    public var supersededAt: ContinuousClock.Instant

    public init(snapshot: Snapshot, supersededAt: ContinuousClock.Instant) {
        self.snapshot = snapshot
        self.supersededAt = supersededAt
    }
}

/// Counts over every snapshot a store holds.
public struct SnapshotStoreStatistics: Sendable, Equatable {
    /// Current and retained snapshots.
    public var snapshots = 0
    /// Bytes counted against the store's bound.
    public var bytes = 0
    /// Snapshots removed to stay within the bound, since the store was made.
    public var evictions = 0

    public init(snapshots: Int = 0, bytes: Int = 0, evictions: Int = 0) {
        self.snapshots = snapshots
        self.bytes = bytes
        self.evictions = evictions
    }
}

/// One snapshot a store holds, as `inventory` lists it.
public struct HeldSnapshot: Sendable {
    public var key: CacheKey
    public var snapshot: Snapshot
    /// Bytes counted against the store's bound for it.
    public var bytes: Int
    /// nil for a key's current snapshot; for a retained one, when it was superseded.
    public var supersededAt: ContinuousClock.Instant?

    public init(key: CacheKey, snapshot: Snapshot, bytes: Int, supersededAt: ContinuousClock.Instant? = nil) {
        self.key = key
        self.snapshot = snapshot
        self.bytes = bytes
        self.supersededAt = supersededAt
    }
}
