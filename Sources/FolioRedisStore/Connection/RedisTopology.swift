import FolioRedis

/// How the shared store reaches Redis (docs/DESIGN.md, "Redis, in one place"). Every connection
/// the store makes is made from here: the client its commands go through, and the events
/// subscription on a connection of its own.
///
/// A new topology is a case here, and nothing above the client changes: a Cluster sends each
/// command to the node of its key's hash slot (every script's keys share one hash tag,
/// `RedisSnapshotKeys`) and its events travel over sharded pub/sub.
public enum RedisTopology: Sendable {
    /// One server (`cache.redis.url`).
    case server(RedisConfiguration)
    /// A Redis Cluster (`cache.redis.cluster`): its seed nodes, and the settings of every
    /// node's connection (password, TLS, timeouts; host and port are each node's).
    case cluster(seeds: [ClusterSlotMap.Node], RedisConfiguration)
    /// A Sentinel-managed primary (`cache.redis.sentinel`): the sentinels, the primary's name,
    /// the data nodes' connection settings and the sentinels' own (their password may differ).
    case sentinel(
        sentinels: [ClusterSlotMap.Node], masterName: String, RedisConfiguration, sentinelSettings: RedisConfiguration)

    /// The client every command of the store goes through, and the subscription to `channel`
    /// (reconnecting within `maxBackoff`), which follows the client's slot map on a cluster.
    func connect(channel: String, maxBackoff: Duration = .seconds(1)) -> (any RedisCommands, RedisSubscriber) {
        switch self {
        case .server(let configuration):
            return (
                RedisClient(configuration), RedisSubscriber(configuration, channel: channel, maxBackoff: maxBackoff)
            )
        case .cluster(let seeds, let configuration):
            let client = RedisClusterClient(seeds: seeds, configuration: configuration)
            return (client, RedisSubscriber(cluster: client, channel: channel, maxBackoff: maxBackoff))
        case .sentinel(let nodes, let masterName, let configuration, let sentinels):
            let client = RedisSentinelClient(
                sentinels: nodes, masterName: masterName, configuration: configuration,
                sentinelConfiguration: sentinels)
            // The subscription follows the primary: after a failure it asks the sentinels again.
            let subscriber = RedisSubscriber(channel: channel, maxBackoff: maxBackoff) {
                failures throws(RedisError) in
                if failures > 0 { client.forget() }
                return try await client.primaryConfiguration()
            }
            return (client, subscriber)
        }
    }
}
