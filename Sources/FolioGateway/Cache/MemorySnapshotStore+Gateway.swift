import FolioConfiguration
import FolioEngine

extension MemorySnapshotStore {
    /// The gateway's default store, and the local layer of a shared one: this process's memory,
    /// bounded by `cache.maxBytes`, its evictions counted and their memory handed back to the system.
    static func gatewayDefault(
        cache: Configuration.CacheSettings, metrics: GatewayMetrics,
        now: @escaping @Sendable () -> ContinuousClock.Instant
    ) -> MemorySnapshotStore {
        let evictions = metrics.cacheEvictions
        return MemorySnapshotStore(
            maxBytes: cache.maxBytes, now: now,
            onEviction: { count in
                evictions.increment(by: Int64(count))
                MemoryReturner.shared.freed()
            })
    }
}
