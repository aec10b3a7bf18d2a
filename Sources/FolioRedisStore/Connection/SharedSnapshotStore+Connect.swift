import FolioEngine
import FolioRedis
import Logging

extension SharedSnapshotStore {
    /// The store on `topology` under `keys`, with `local` in front, and the service that keeps
    /// it in touch with the other replicas (the events subscription, and a ping while Redis is
    /// away). `metrics` counts the failed calls to Redis.
    public static func connect(
        to topology: RedisTopology, keys: RedisSnapshotKeys, local: MemorySnapshotStore, metrics: any StoreMetrics,
        logger: Logger, now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) -> (SharedSnapshotStore, SharedStoreService) {
        let (client, subscriber) = topology.connect(channel: keys.events)
        let store = SharedSnapshotStore(
            local: local, redis: RedisSnapshots(client: client, keys: keys),
            health: StoreHealth(logger: logger, metrics: metrics, now: now), logger: logger, now: now)
        // Drops published while the subscription is down are not heard: when it is back, the
        // store checks its local copies against Redis (`resubscribed`).
        return (store, SharedStoreService(store: store, subscriber: subscriber))
    }
}
