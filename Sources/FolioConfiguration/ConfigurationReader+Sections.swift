extension ConfigurationReader {
    mutating func tracing(_ entry: ConfigEntry) -> Configuration.Tracing {
        var tracing = Configuration.Tracing()
        guard let fields = fields(entry) else { return tracing }
        if let e = fields["otlpEndpoint"], let text = nullableString(e) {
            if let text {
                let location = e.location
                if let url = parsed(at: location, { () throws(ValueSyntaxError) in try UpstreamURL(text) }) {
                    if url.path.contains("?") {
                        report("otlpEndpoint cannot have a query", at: location)
                    } else {
                        tracing.otlpEndpoint = text
                    }
                }
            }
        }
        if let e = fields["serviceName"], let name = string(e) {
            if name.isEmpty { report("must not be empty", at: e.location) } else { tracing.serviceName = name }
        }
        if let e = fields["sampleRatio"], let text = string(e) {
            if let ratio = Double(text), ratio >= 0, ratio <= 1, text.allSatisfy({ $0.isNumber || $0 == "." }) {
                tracing.sampleRatio = ratio
            } else {
                report("expected a number from 0 to 1, got '\(text)'", at: e.location)
            }
        }
        return tracing
    }

    mutating func logging(_ entry: ConfigEntry) -> Configuration.LoggingSettings {
        var logging = Configuration.LoggingSettings()
        guard let fields = fields(entry) else { return logging }
        if let e = fields["level"], let level = choice(e, Configuration.LogLevel.self) { logging.level = level }
        if let e = fields["access"], let access = bool(e) { logging.access = access }
        return logging
    }

    mutating func limits(_ entry: ConfigEntry) -> Configuration.Limits {
        var limits = Configuration.Limits()
        guard let fields = fields(entry) else { return limits }
        if let e = fields["maxUpstreamBytes"], let n = size(e) {
            if n > Configuration.Limits.maxUpstreamBytesCeiling {
                report("at most 4GiB (lists use 32-bit offsets)", at: e.location)
            } else if n < 1 {
                report("must be at least 1B", at: e.location)
            } else {
                limits.maxUpstreamBytes = n
            }
        }
        if let e = fields["maxItems"], let n = atLeast(1, int(e), e) { limits.maxItems = n }
        if let e = fields["maxJSONDepth"], let n = atLeast(1, int(e), e) { limits.maxJSONDepth = n }
        if let e = fields["upstreamTimeout"], let d = positiveDuration(e) { limits.upstreamTimeout = d }
        if let e = fields["connectTimeout"], let d = positiveDuration(e) { limits.connectTimeout = d }
        if let e = fields["crawlTimeout"], let d = positiveDuration(e) { limits.crawlTimeout = d }
        if let e = fields["maxURLBytes"], let n = atLeast(1, size(e), e) { limits.maxURLBytes = n }
        if let e = fields["maxHeaderBytes"], let n = atLeast(1, size(e), e) { limits.maxHeaderBytes = n }
        if let e = fields["maxHeaderCount"], let n = atLeast(1, int(e), e) { limits.maxHeaderCount = n }
        if let e = fields["maxRequestBodyBytes"], let n = size(e) { limits.maxRequestBodyBytes = n }
        return limits
    }

    /// The global `cache:` (with `maxBytes`), or a route's (`base` is the global one).
    mutating func cache(_ entry: ConfigEntry, base: Configuration.CacheSettings, global: Bool)
        -> Configuration.CacheSettings
    {
        var cache = base
        let hints =
            global
            ? [:]
            : [
                "maxBytes": "the cache size is global: set it in the top-level cache:",
                "store": "the store is global: set it in the top-level cache:",
                "redis": "the store is global: set it in the top-level cache:",
            ]
        guard let fields = fields(entry, hints: hints) else { return cache }
        if global, let e = fields["maxBytes"] {
            if e.node.scalar?.string == "auto" {
                cache.memoryLimit = .some(MemoryLimit.detect(root: cgroupRoot))
                cache.maxBytes = MemoryLimit.autoCacheBytes(limit: cache.memoryLimit!)
            } else if let n = size(e) {
                cache.maxBytes = n
            }
        }
        if global {
            if let e = fields["store"], let kind = choice(e, Configuration.StoreKind.self) {
                cache.store = kind
                storeLocation = e.location
            }
            if let e = fields["redis"] { cache.redis = redis(e) }
        }
        if let e = fields["ttl"], let d = duration(e) { cache.ttl = d }
        if let e = fields["staleWhileRevalidate"], let d = duration(e) { cache.staleWhileRevalidate = d }
        if let e = fields["staleIfError"], let d = duration(e) { cache.staleIfError = d }
        if let e = fields["snapshotRetention"], let d = duration(e) { cache.snapshotRetention = d }
        return cache
    }

    /// `cache.redis`.
    mutating func redis(_ entry: ConfigEntry) -> Configuration.RedisSettings {
        var redis = Configuration.RedisSettings()
        guard let fields = fields(entry) else { return redis }
        if let e = fields["url"], let text = nullableString(e), let text {
            redisURLLocation = e.location
            do {
                redis.url = try RedisURL(text)
            } catch {
                redisURLRefused = true
                report(error.message, at: e.location)
            }
        }
        if let e = fields["cluster"] { redis.cluster = cluster(e) }
        if let e = fields["sentinel"], !isNull(e.node) { redis.sentinel = sentinel(e) }
        if let e = fields["keyPrefix"], let text = string(e) {
            // A brace would make the prefix a key's hash tag: every key in one cluster slot.
            if text.contains("{") || text.contains("}") {
                report("keyPrefix must not contain '{' or '}' (they mark a Redis Cluster hash tag)", at: e.location)
            } else {
                redis.keyPrefix = text
            }
        }
        // 0 would fail every connect or command: Redis would never be available.
        if let e = fields["connectTimeout"], let d = positiveDuration(e) { redis.connectTimeout = d }
        if let e = fields["commandTimeout"], let d = positiveDuration(e) { redis.commandTimeout = d }
        if let e = fields["localMaxBytes"], let n = atLeast(1, size(e), e) { redis.localMaxBytes = n }
        // Checked with the URL and the store (`sharedStore`): only `store: redis` reads them.
        for (key, path, _, _) in Configuration.RedisSettings.pemFiles {
            if let e = fields[key], let text = nullableString(e) {
                redis[keyPath: path] = text
                redis.filePositions.positions[key] = .init(line: e.location.line, column: e.location.column)
            }
        }
        return redis
    }

    /// `cache.redis.cluster`: seed URLs, all of one scheme, without a database (a cluster has only
    /// database 0).
    mutating func cluster(_ entry: ConfigEntry) -> [RedisURL] {
        guard let items = strings(entry) else {
            redisURLRefused = true
            return []
        }
        var nodes: [RedisURL] = []
        for (text, location) in items {
            do {
                let node = try RedisURL(text)
                if node.database != 0, entry.location.path.hasSuffix("cluster") {
                    report("a Redis Cluster has database 0 only: remove '/\(node.database)'", at: location)
                }
                nodes.append(node)
            } catch {
                redisURLRefused = true
                report(error.message, at: location)
            }
        }
        if Set(nodes.map(\.tls)).count > 1 {
            report("the cluster's nodes are all redis:// or all rediss://", at: entry.location)
        }
        if !items.isEmpty, entry.location.path.hasSuffix("cluster") { redisClusterLocation = entry.location }
        return nodes
    }

    /// `cache.redis.sentinel`: `nodes` (sentinel URLs, one scheme) and `masterName`, both required.
    mutating func sentinel(_ entry: ConfigEntry) -> SentinelSettings? {
        redisSentinelLocation = entry.location
        guard let fields = fields(entry) else {
            redisURLRefused = true
            return nil
        }
        var nodes: [RedisURL] = []
        if let e = fields["nodes"] { nodes = cluster(e) }
        var masterName: String?
        if let e = fields["masterName"] { masterName = string(e) }
        if nodes.isEmpty || masterName == nil {
            redisURLRefused = true
            if fields["nodes"] == nil { report("sentinel needs nodes: the sentinels' URLs", at: fields.location) }
            if fields["masterName"] == nil {
                report("sentinel needs masterName: the name the sentinels monitor", at: fields.location)
            }
            return nil
        }
        return SentinelSettings(
            nodes: nodes, masterName: masterName ?? "", sentinelPassword: nodes.first?.password,
            password: nodes.first?.password)
    }

    /// `value` when it is at least `minimum`; otherwise reported.
    mutating func atLeast(_ minimum: Int, _ value: Int?, _ entry: ConfigEntry) -> Int? {
        guard let value else { return nil }
        guard value >= minimum else {
            report("must be at least \(minimum), got \(value)", at: entry.location)
            return nil
        }
        return value
    }
}
