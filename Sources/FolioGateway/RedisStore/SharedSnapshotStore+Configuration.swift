import FolioConfiguration
import FolioEngine
import FolioRedis
import FolioRedisStore
import Logging
import NIOSSL

extension SharedSnapshotStore {
    /// The store `cache.store: redis` describes, and the service that keeps it in touch with
    /// the other replicas; nil with `store: memory`.
    static func make(
        _ cache: Configuration.CacheSettings, metrics: GatewayMetrics, logger: Logger,
        now: @escaping @Sendable () -> ContinuousClock.Instant
    ) throws(RedisTLSFileError) -> (SharedSnapshotStore, SharedStoreService)? {
        guard cache.store == .redis,
            let url = cache.redis.url ?? cache.redis.cluster.first ?? cache.redis.sentinel?.nodes.first
        else { return nil }
        let files = tlsFiles(cache.redis)
        let configuration = RedisConfiguration(
            host: url.host, port: url.port, username: url.username, password: url.password, database: url.database,
            connectTimeout: cache.redis.connectTimeout, commandTimeout: cache.redis.commandTimeout,
            tls: url.tls ? try files.configuration() : nil, clientCertificate: url.tls ? files.clientCertificate : nil
        )
        let topology: RedisTopology
        if let sentinel = cache.redis.sentinel {
            var data = configuration
            data.password = sentinel.password
            var sentinels = configuration
            (sentinels.password, sentinels.database) = (sentinel.sentinelPassword, 0)
            topology = .sentinel(
                sentinels: sentinel.nodes.map { ClusterSlotMap.Node(host: $0.host, port: $0.port) },
                masterName: sentinel.masterName, data, sentinelSettings: sentinels)
        } else if !cache.redis.cluster.isEmpty {
            topology = .cluster(
                seeds: cache.redis.cluster.map { ClusterSlotMap.Node(host: $0.host, port: $0.port) }, configuration)
        } else {
            topology = .server(configuration)
        }
        let keys = RedisSnapshotKeys(prefix: cache.redis.keyPrefix)
        var local = cache
        local.maxBytes = cache.redis.localMaxBytes
        let shared = connect(
            to: topology, keys: keys,
            local: MemorySnapshotStore.gatewayDefault(cache: local, metrics: metrics, now: now),
            metrics: metrics, logger: logger, now: now)
        var metadata: Logger.Metadata = [
            "key_prefix": "\(keys.prefix)", "local_max_bytes": "\(local.maxBytes)",
        ]
        if let sentinel = cache.redis.sentinel {
            metadata["sentinels"] = .array(sentinel.nodes.map { "\($0)" })
            metadata["master_name"] = "\(sentinel.masterName)"
        } else if cache.redis.cluster.isEmpty {
            metadata["url"] = "\(url)"
        } else {
            metadata["cluster"] = .array(cache.redis.cluster.map { "\($0)" })
        }
        if url.tls {
            metadata["ca_file"] = "\(cache.redis.caFile ?? "system trust roots")"
            if let certFile = cache.redis.certFile { metadata["cert_file"] = "\(certFile)" }
        }
        logger.info("shared store", metadata: metadata)
        return shared
    }

    /// The TLS settings of `rediss://` (`RedisTLSFiles.configuration`), checked at start.
    static func tls(_ redis: Configuration.RedisSettings) throws(RedisTLSFileError) -> TLSConfiguration {
        try tlsFiles(redis).configuration()
    }

    private static func tlsFiles(_ redis: Configuration.RedisSettings) -> RedisTLSFiles {
        RedisTLSFiles(caFile: redis.caFile, certFile: redis.certFile, keyFile: redis.keyFile)
    }
}
