import FolioEngine

/// Counts over every snapshot a cache holds and the fills it runs.
struct CacheStatistics: Sendable, Equatable {
    var store: SnapshotStoreStatistics
    var fillsInFlight: Int

    var snapshots: Int { store.snapshots }
    /// Bytes counted against `cache.maxBytes`.
    var bytes: Int { store.bytes }
    var evictions: Int { store.evictions }
}
