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
                case .success: await store.resubscribed()
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
                if !store.drops.pending.failedDrops.isEmpty { _ = await store.dropSync.replay() }
                if store.health.isAvailable, !store.dropSync.retires.isEmpty { await store.dropSync.retryRetires() }
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
            _ = await store.dropSync.replay()
        }
    }
}

extension SharedSnapshotStore {
    /// The store `cache.store: redis` describes, and the service that keeps it in touch with
    /// the other replicas.
    static func make(
        _ cache: Configuration.CacheSettings, metrics: GatewayMetrics, logger: Logger,
        now: @escaping @Sendable () -> ContinuousClock.Instant
    ) throws(RedisTLSFileError) -> (SharedSnapshotStore, SharedStoreService)? {
        guard cache.store == .redis, let url = cache.redis.url else { return nil }
        let configuration = RedisConfiguration(
            host: url.host, port: url.port, username: url.username, password: url.password, database: url.database,
            connectTimeout: cache.redis.connectTimeout, commandTimeout: cache.redis.commandTimeout,
            tls: url.tls ? try tls(cache.redis) : nil, clientCertificate: url.tls ? clientCertificate(cache.redis) : nil
        )
        let keys = RedisSnapshotKeys(prefix: cache.redis.keyPrefix)
        var local = cache
        local.maxBytes = cache.redis.localMaxBytes
        let store = SharedSnapshotStore(
            local: Gateway.memoryStore(cache: local, metrics: metrics, now: now),
            redis: RedisSnapshots(client: RedisClient(configuration), keys: keys),
            health: StoreHealth(logger: logger, metrics: metrics, now: now), logger: logger, now: now)
        var metadata: Logger.Metadata = [
            "url": "\(url)", "key_prefix": "\(keys.prefix)", "local_max_bytes": "\(local.maxBytes)",
        ]
        if url.tls {
            metadata["ca_file"] = "\(cache.redis.caFile ?? "system trust roots")"
            if let certFile = cache.redis.certFile { metadata["cert_file"] = "\(certFile)" }
        }
        logger.info("shared store", metadata: metadata)
        // Drops published while the subscription is down are not heard: when it is back, the
        // store checks its local copies against Redis (`resubscribed`).
        let subscriber = RedisSubscriber(configuration, channel: keys.events, maxBackoff: .seconds(1))
        return (store, SharedStoreService(store: store, subscriber: subscriber))
    }

    /// `rediss://`: the server's certificate is checked against `caFile`'s authorities when it
    /// is set (a private CA), else against the system's trust roots; and always against the
    /// URL's host name. With `certFile` and `keyFile`, the client shows that certificate
    /// (mutual TLS). The files are parsed here, and a context is built with them, so a file the
    /// TLS library cannot read, or a key that is not the certificate's (either fails every
    /// connection), stops the start; each new connection reads them again, so renewed files
    /// apply from the next reconnect.
    static func tls(_ redis: Configuration.RedisSettings) throws(RedisTLSFileError) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        func parsed<T>(_ key: String, _ file: String, _ problem: String, _ parse: () throws -> T)
            throws(RedisTLSFileError) -> T
        {
            do {
                return try parse()
            } catch {
                throw RedisTLSFileError(key: key, file: file, problem: "\(problem) (\(error))")
            }
        }
        if let caFile = redis.caFile {
            // Throws when there is no certificate, or one that does not parse.
            _ = try parsed("caFile", caFile, "a certificate in it cannot be parsed") {
                try NIOSSLCertificate.fromPEMFile(caFile)
            }
            tls.trustRoots = .file(caFile)
        }
        if let files = clientCertificate(redis) {
            _ = try parsed("certFile", files.chain, "a certificate in it cannot be parsed") {
                try NIOSSLCertificate.fromPEMFile(files.chain)
            }
            _ = try parsed("keyFile", files.key, "the private key cannot be parsed") {
                try NIOSSLPrivateKey(file: files.key, format: .pem)
            }
            // The TLS library refuses a key that does not match the chain's first certificate.
            _ = try parsed("keyFile", files.key, "not the private key of certFile's certificate") {
                try NIOSSLContext(configuration: try files.apply(to: tls))
            }
        }
        return tls
    }

    /// `certFile` and `keyFile`, when both are set (the loader accepts one only with the other).
    static func clientCertificate(_ redis: Configuration.RedisSettings) -> RedisClientCertificateFiles? {
        guard let certFile = redis.certFile, let keyFile = redis.keyFile else { return nil }
        return RedisClientCertificateFiles(chain: certFile, key: keyFile)
    }
}

/// A PEM file of `cache.redis` (`caFile`, `certFile`, `keyFile`) the TLS library cannot use.
struct RedisTLSFileError: Error, CustomStringConvertible {
    let key: String
    let file: String
    let problem: String

    var description: String { "cache.redis.\(key): \(file): \(problem)" }
}
