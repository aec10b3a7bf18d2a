import FolioRedis

/// How the shared store reaches Redis (docs/DESIGN.md, "Redis, in one place"). Every connection
/// the store makes is made from here: the client its commands go through, and the events
/// subscription on a connection of its own.
///
/// One server today (docs/SHARED-STORE.md, "Not yet"). A new topology is a case here, and
/// nothing above the client changes: Sentinel asks the sentinels for the primary's address and
/// follows a failover; Cluster sends each command to the node of its keys' hash slot (one
/// snapshot's keys already share a hash tag, `RedisSnapshotKeys`; the scripts that move
/// newest pointers touch keys of other slots: `RedisSnapshots.write`,
/// `RedisRouteDrops.dropPointers`).
public enum RedisTopology: Sendable {
    /// One server (`cache.redis.url`).
    case server(RedisConfiguration)

    /// The client every command of the store goes through.
    func client() -> RedisClient {
        switch self {
        case .server(let configuration): RedisClient(configuration)
        }
    }

    /// The subscription to `channel`, reconnecting within `maxBackoff`.
    func subscriber(channel: String, maxBackoff: Duration = .seconds(1)) -> RedisSubscriber {
        switch self {
        case .server(let configuration): RedisSubscriber(configuration, channel: channel, maxBackoff: maxBackoff)
        }
    }
}
