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
        let cluster = client as? RedisClusterClient
        let health = StoreHealth(logger: logger, metrics: metrics, logsShards: cluster != nil, now: now)
        // One line per shard lost and per shard back (docs/SHARED-STORE.md, "Redis Cluster").
        cluster?.onShardChange { health.shardChanged($0) }
        let store = SharedSnapshotStore(
            local: local, redis: RedisSnapshots(client: client, keys: keys), health: health, logger: logger, now: now)
        // Drops published while the subscription is down are not heard: when it is back, the
        // store checks its local copies against Redis (`resubscribed`).
        return (store, SharedStoreService(store: store, subscriber: subscriber))
    }
}
