extension Configuration {
    /// `cache:` globally; a route's `cache:` may override all but `maxBytes`.
    public struct CacheSettings: Sendable, Equatable {
        /// `maxBytes`: all snapshots together (bytes, indexes, orders, sections); global only:
        /// read from `Configuration.cache`, while a route's copy keeps the default (`perRoute`),
        /// so a new bound never makes a reload treat every route as changed. Default `512MiB`.
        public var maxBytes: Int
        /// Set when `maxBytes` is `auto`: the container memory limit it was derived from (the
        /// inner nil: no limit, so the 512 MiB fallback). Nil for a size given in the file.
        public var memoryLimit: Int??
        /// `ttl`: freshness when the upstream sends no `Cache-Control`/`Expires`. Default `60s`.
        public var ttl: Duration
        /// `staleWhileRevalidate`: a stale list is served at once while one background refresh
        /// runs. Default `30s`.
        public var staleWhileRevalidate: Duration
        /// `staleIfError`: a stale list is served when a refresh fails. Default `5m`.
        public var staleIfError: Duration
        /// `snapshotRetention`: how long a superseded snapshot still answers pinned links.
        /// Default `10m`.
        public var snapshotRetention: Duration
        /// `store`: where snapshots live; global only, like `maxBytes`. Default `memory`.
        public var store: StoreKind = .memory
        /// `redis:` (with `store: redis`); global only.
        public var redis = RedisSettings()

        /// The defaults `config/folio.yaml` documents.
        public init() {
            maxBytes = 512 << 20
            ttl = .seconds(60)
            staleWhileRevalidate = .seconds(30)
            staleIfError = .seconds(5 * 60)
            snapshotRetention = .seconds(10 * 60)
        }

        /// The bound of the snapshots this process holds: `maxBytes`, or with `store: redis`
        /// its local layer's `localMaxBytes` (`folio_cache_max_bytes`).
        public var processBound: Int { store == .redis ? redis.localMaxBytes : maxBytes }

        /// These settings as a route inherits them: without the global bound, which is not a
        /// route's own setting (a reload keeps the snapshots of routes whose settings are
        /// unchanged, whatever happens to the bound).
        var perRoute: CacheSettings {
            var copy = self
            copy.maxBytes = CacheSettings().maxBytes
            copy.memoryLimit = nil
            copy.store = .memory
            copy.redis = RedisSettings()
            return copy
        }
    }

    /// `cache.store`.
    public enum StoreKind: String, Sendable, Equatable, CaseIterable {
        /// This process's memory, bounded by `maxBytes`.
        case memory
        /// Shared by every replica through Redis, with a local layer of `localMaxBytes`.
        case redis
    }

    /// `cache.redis` (docs/SHARED-STORE.md).
    public struct RedisSettings: Sendable, Equatable {
        /// `url` (or `FOLIO_REDIS_URL`, when the file sets none); the password may also come
        /// from `FOLIO_REDIS_PASSWORD`. Required with `store: redis`.
        public var url: RedisURL?
        /// `cluster`: seed nodes of a Redis Cluster, instead of `url` (docs/SHARED-STORE.md,
        /// "Redis Cluster"). All `redis://` or all `rediss://`, database 0.
        public var cluster: [RedisURL] = []

        /// `sentinel`: the sentinels of a Sentinel-managed primary, instead of `url`
        /// (docs/SHARED-STORE.md, "Sentinel").
        public var sentinel: SentinelSettings?

        /// Whether the store is reached over TLS (`rediss://`).
        public var usesTLS: Bool { url?.tls ?? cluster.first?.tls ?? sentinel?.nodes.first?.tls ?? false }

        /// Whether a server, a cluster or sentinels are named.
        public var isNamed: Bool { url != nil || !cluster.isEmpty || sentinel != nil }
        /// `keyPrefix`: before every key Folio writes. Default `folio:`.
        public var keyPrefix = "folio:"
        /// `connectTimeout`. Default `2s`.
        public var connectTimeout: Duration = .seconds(2)
        /// `commandTimeout`: beyond it Redis counts as unavailable. Default `2s`.
        public var commandTimeout: Duration = .seconds(2)
        /// `localMaxBytes`: the in-process layer in front of Redis. Default `128MiB`.
        public var localMaxBytes = 128 << 20
        /// `caFile`: a PEM file of the certificate authorities a `rediss://` server's certificate
        /// is checked against, instead of the system's trust roots (a private CA). With `store:
        /// redis`, checked when the config is read (a readable regular file with a `BEGIN
        /// CERTIFICATE` block, and a TLS URL) and parsed when the store is built.
        public var caFile: String?
        /// `certFile` and `keyFile`: the client certificate (PEM, leaf first, then any
        /// intermediates) and its unencrypted private key, for a `rediss://` server that asks
        /// clients for one (mutual TLS: Redis's `tls-auth-clients yes`). Both or neither;
        /// checked like `caFile`, and the key against the certificate when the store is built.
        public var certFile: String?
        public var keyFile: String?
        /// Where `caFile`, `certFile` and `keyFile` stand in the file, for the problems the TLS
        /// library finds in those files after loading (`startupProblems`).
        public var filePositions = KeyPositions()

        /// The keys that name PEM files, in the order they are checked: what each holds.
        static var pemFiles:
            [(key: String, path: WritableKeyPath<RedisSettings, String?>, kind: PEMFile.Kind, holding: String)]
        {
            [
                ("caFile", \.caFile, .certificates, "of certificate authorities"),
                ("certFile", \.certFile, .certificates, "of the client's certificate"),
                ("keyFile", \.keyFile, .privateKey, "of the client's private key"),
            ]
        }

        public init() {}
    }
}

/// `cache.redis.sentinel`: `{nodes: [redis://s1:26379, …], masterName: mymaster}`.
public struct SentinelSettings: Sendable, Equatable {
    /// The sentinels' URLs: their password (if any) is the data nodes' too, unless
    /// `FOLIO_REDIS_PASSWORD` sets that; `FOLIO_REDIS_SENTINEL_PASSWORD` sets the sentinels'.
    public var nodes: [RedisURL]
    public var masterName: String
    /// The sentinels' own password (`FOLIO_REDIS_SENTINEL_PASSWORD`, else the URLs').
    public var sentinelPassword: String?
    /// The data nodes' password (`FOLIO_REDIS_PASSWORD`, else the URLs').
    public var password: String?

    public init(nodes: [RedisURL], masterName: String, sentinelPassword: String? = nil, password: String? = nil) {
        self.nodes = nodes
        self.masterName = masterName
        self.sentinelPassword = sentinelPassword
        self.password = password
    }
}

/// Where keys stand in the config file, by key name, for problems found after loading. Not part
/// of what the settings say: settings that differ only in where their keys stand are equal (a
/// reload that moves a line changes nothing).
public struct KeyPositions: Sendable, Equatable {
    /// 1-based, as `ConfigurationProblem` counts.
    public struct Position: Sendable, Equatable {
        public let line: Int
        public let column: Int
    }

    var positions: [String: Position] = [:]

    public init() {}

    public subscript(key: String) -> Position? { positions[key] }

    public static func == (_: Self, _: Self) -> Bool { true }
}
