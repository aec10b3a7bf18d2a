import FolioConfiguration
import FolioEngine
import FolioRedis
import FolioRedisStore
import Logging
import NIOSSL
import ServiceLifecycle

/// Runs what a shared store needs besides requests: the events subscription (other replicas'
/// drops and finished fills) and, while Redis is unavailable, a ping every `probeInterval` that
/// finds it back (and sends the drops made meanwhile before requests use it again).
struct SharedStoreService: Service {
    let store: SharedSnapshotStore
    let subscriber: RedisSubscriber
    var probeInterval: Duration = .seconds(1)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await listen() }
                group.addTask { await probe() }
                await group.waitForAll()
            }
        }
        await store.redis.client.close()
    }

    private func listen() async {
        let store = self.store
        await subscriber.run(
            onMessage: { payload in store.receive(payload) },
            onState: { state in
                switch state {
                case .success: store.resubscribed()
                case .failure(let error): store.subscriptionFailed(error)
                }
            })
    }

    private func probe() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: probeInterval)
            guard !store.health.isAvailable else {
                // Drops Redis refused (an error answer leaves the store available), and
                // retention steps of drops that failed.
                if !store.pendingDrops.failedDrops.isEmpty { _ = await store.replayDrops() }
                if store.health.isAvailable, !store.unfinishedRetires.isEmpty { await store.retryRetires() }
                continue
            }
            do {
                try await store.redis.client.send(["PING"])
            } catch {
                store.health.failed(.ping, error)
                continue
            }
            // Drops made during the outage go first (their routes are not loaded from Redis
            // until they are in); the replay marks the store available once it sent them all.
            _ = await store.replayDrops()
        }
    }
}

extension SharedSnapshotStore {
    /// The store `cache.store: redis` describes, and the service that keeps it in touch with
    /// the other replicas.
    static func make(
        _ cache: Configuration.CacheSettings, metrics: GatewayMetrics, logger: Logger,
        now: @escaping @Sendable () -> ContinuousClock.Instant
    ) throws(CAFileError) -> (SharedSnapshotStore, SharedStoreService)? {
        guard cache.store == .redis, let url = cache.redis.url else { return nil }
        let configuration = RedisConfiguration(
            host: url.host, port: url.port, username: url.username, password: url.password, database: url.database,
            connectTimeout: cache.redis.connectTimeout, commandTimeout: cache.redis.commandTimeout,
            tls: url.tls ? try tls(caFile: cache.redis.caFile) : nil)
        let keys = RedisSnapshotKeys(prefix: cache.redis.keyPrefix)
        var local = cache
        local.maxBytes = cache.redis.localMaxBytes
        let store = SharedSnapshotStore(
            local: Gateway.memoryStore(cache: local, metrics: metrics, now: now),
            redis: RedisSnapshots(client: RedisClient(configuration), keys: keys),
            health: StoreHealth(logger: logger, metrics: metrics), logger: logger, now: now)
        var metadata: Logger.Metadata = [
            "url": "\(url)", "key_prefix": "\(keys.prefix)", "local_max_bytes": "\(local.maxBytes)",
        ]
        if url.tls { metadata["ca_file"] = "\(cache.redis.caFile ?? "system trust roots")" }
        logger.info("shared store", metadata: metadata)
        // Drops published while the subscription is down are not heard: when it is back, the
        // store checks its local copies against Redis (`resubscribed`).
        let subscriber = RedisSubscriber(configuration, channel: keys.events, maxBackoff: .seconds(1))
        return (store, SharedStoreService(store: store, subscriber: subscriber))
    }

    /// `rediss://`: the server's certificate is checked against `caFile`'s authorities when it
    /// is set (a private CA), else against the system's trust roots; and always against the
    /// URL's host name. The file is parsed here, so a bundle with a certificate the TLS library
    /// cannot parse (which fails every connection) stops the start; it is read again by each
    /// new connection, so a rotated bundle applies from the next reconnect.
    static func tls(caFile: String?) throws(CAFileError) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        guard let caFile else { return tls }
        do {
            // Throws when there is no certificate, or one that does not parse.
            _ = try NIOSSLCertificate.fromPEMFile(caFile)
        } catch {
            throw CAFileError(file: caFile, reason: "\(error)")
        }
        tls.trustRoots = .file(caFile)
        return tls
    }
}

/// `cache.redis.caFile` holds a certificate the TLS library cannot parse.
struct CAFileError: Error, CustomStringConvertible {
    let file: String
    let reason: String

    var description: String { "cache.redis.caFile: \(file): a certificate in it cannot be parsed (\(reason))" }
}
