import Foundation
import Yams

/// Reads a YAML config file into a validated `Configuration` (docs/CONFIG.md).
///
/// Every problem is collected and reported at once with its position; only a YAML syntax error
/// or a duplicate key stops early (there is no tree to walk), and is reported alone.
public enum ConfigurationLoader {

    /// Reads `file`; an unreadable file is a single problem at 1:1.
    public static func load(
        file: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigurationError) -> Configuration {
        func unreadable(_ reason: String) -> ConfigurationError {
            ConfigurationError(problems: [
                ConfigurationProblem(file: file, line: 1, column: 1, path: "", message: "cannot read file: \(reason)")
            ])
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else {
            throw unreadable("no such file")
        }
        guard !isDirectory.boolValue else { throw unreadable("it is a directory") }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw unreadable(error.localizedDescription)
        }
        guard let text = String(data: data, encoding: .utf8) else { throw unreadable("it is not UTF-8 text") }
        return try parse(yaml: text, file: file, environment: environment)
    }

    /// Parses YAML text; `file` only names it in problems. `environment` supplies
    /// `FOLIO_ADMIN_TOKEN` (when the file sets no `adminToken`) and `FOLIO_LOG_LEVEL` (overrides
    /// `logging.level`).
    public static func parse(
        yaml: String, file: String, environment: [String: String] = [:]
    ) throws(ConfigurationError) -> Configuration {
        let root: Node
        do {
            root = try Yams.compose(yaml: yaml) ?? Node.mapping(Node.Mapping([]))
        } catch {
            throw ConfigurationError(problems: [syntaxProblem(error, yaml: yaml, file: file)])
        }
        var reader = ConfigurationReader(file: file)
        reader.cgroupRoot = environment["FOLIO_CGROUP_ROOT"] ?? "/"
        let configuration = reader.configuration(
            ConfigEntry(node: root, location: ConfigLocation(path: "", mark: root.mark)), environment: environment)
        let problems = reader.problems.enumerated()
            .sorted {
                ($0.element.line, $0.element.column, $0.offset) < ($1.element.line, $1.element.column, $1.offset)
            }
            .map(\.element)
        guard problems.isEmpty, let configuration else { throw ConfigurationError(problems: problems) }
        return configuration
    }
}

extension ConfigurationLoader {
    /// Every key the reader asks for in the mappings `yaml` has (a key is known where it is
    /// read): with every section present, the keys a config file may contain.
    static func keysRead(yaml: String) -> Set<String> {
        guard let root = try? Yams.compose(yaml: yaml) else { return [] }
        var reader = ConfigurationReader(file: "keys.yaml")
        _ = reader.configuration(
            ConfigEntry(node: root, location: ConfigLocation(path: "", mark: root.mark)), environment: [:])
        return Set(reader.knownKeys.values.joined())
    }
}

extension ConfigurationReader {
    /// The whole document; `nil` only when something was reported.
    mutating func configuration(_ root: ConfigEntry, environment: [String: String]) -> Configuration? {
        guard let fields = fields(root) else { return nil }
        var server = fields["server"].map { self.server($0) } ?? Configuration.Server()
        var logging = fields["logging"].map { self.logging($0) } ?? Configuration.LoggingSettings()
        let tracing = fields["tracing"].map { self.tracing($0) } ?? Configuration.Tracing()
        let limits = fields["limits"].map { self.limits($0) } ?? Configuration.Limits()
        var cache =
            fields["cache"].map { self.cache($0, base: Configuration.CacheSettings(), global: true) }
            ?? Configuration.CacheSettings()
        sharedStore(&cache, environment: environment)
        var defaults = Configuration.PagingSettings()
        if let e = fields["defaults"], let defaultFields = self.fields(e) {
            defaults = paging(defaultFields, base: defaults)
        }
        var routes: [Configuration.Route] = []
        if let e = fields["routes"] {
            routes = self.routes(e, defaults: defaults, cache: cache.perRoute)
        } else {
            report("missing required key 'routes' (at least one route)", at: fields.missing("routes"))
        }

        if server.adminToken == nil, let token = environment["FOLIO_ADMIN_TOKEN"], !token.isEmpty {
            server.adminToken = token
        }
        if let text = environment["FOLIO_LOG_LEVEL"], !text.isEmpty {
            if let level = Configuration.LogLevel(rawValue: text.lowercased()) {
                logging.level = level
            } else {
                let names = Configuration.LogLevel.allCases.map(\.rawValue).joined(separator: ", ")
                report(
                    "FOLIO_LOG_LEVEL='\(text)' is not a log level (\(names))",
                    at: ConfigLocation(path: "logging.level", line: 1, column: 1))
            }
        }
        reportUnknownKeys()
        guard problems.isEmpty else { return nil }
        return Configuration(
            server: server, logging: logging, tracing: tracing, limits: limits, cache: cache, defaults: defaults,
            routes: routes)
    }
}

extension ConfigurationReader {
    /// `FOLIO_REDIS_URL` (when the file sets no URL) and `FOLIO_REDIS_PASSWORD` (when the URL
    /// has no password), then the checks of `store: redis`: its PEM files, and that it has a URL.
    mutating func sharedStore(
        _ cache: inout Configuration.CacheSettings, environment: [String: String]
    ) {
        let named = [redisURLLocation, redisClusterLocation, redisSentinelLocation].compactMap { $0 }
        if named.count > 1 {
            report(
                "name one of cache.redis.url, cache.redis.cluster and cache.redis.sentinel, not several", at: named[1])
        }
        if let password = environment["FOLIO_REDIS_PASSWORD"], !password.isEmpty {
            cache.redis.sentinel?.password = password
        }
        if let password = environment["FOLIO_REDIS_SENTINEL_PASSWORD"], !password.isEmpty {
            cache.redis.sentinel?.sentinelPassword = password
        }
        if !cache.redis.isNamed, named.isEmpty, let text = environment["FOLIO_REDIS_URL"], !text.isEmpty {
            do {
                cache.redis.url = try RedisURL(text)
            } catch {
                redisURLRefused = true
                report(
                    "FOLIO_REDIS_URL: \(error.message)", at: ConfigLocation(path: "cache.redis.url", line: 1, column: 1)
                )
            }
        }
        if cache.redis.url != nil, cache.redis.url?.password == nil,
            let password = environment["FOLIO_REDIS_PASSWORD"], !password.isEmpty
        {
            cache.redis.url?.password = password
        }
        if let password = environment["FOLIO_REDIS_PASSWORD"], !password.isEmpty {
            for index in cache.redis.cluster.indices where cache.redis.cluster[index].password == nil {
                cache.redis.cluster[index].password = password
            }
        }
        if cache.store == .redis { checkPEMFiles(cache.redis) }
        guard cache.store == .redis, !cache.redis.isNamed, !redisURLRefused else { return }
        report(
            "redis needs cache.redis.url (or FOLIO_REDIS_URL), cache.redis.cluster or cache.redis.sentinel",
            at: storeLocation ?? ConfigLocation(path: "cache.store", line: 1, column: 1))
    }

    /// `caFile`, `certFile` and `keyFile` of a Redis store: readable PEM files of the right
    /// kind, for a `rediss://` URL; a certificate and its key come together.
    private mutating func checkPEMFiles(_ redis: Configuration.RedisSettings) {
        func location(_ key: String) -> ConfigLocation {
            let position = redis.filePositions[key]
            return ConfigLocation(
                path: "cache.redis.\(key)", line: position?.line ?? 1, column: position?.column ?? 1)
        }
        for (key, path, kind, holding) in Configuration.RedisSettings.pemFiles {
            guard let file = redis[keyPath: path] else { continue }
            if file.isEmpty {
                report("empty: name a PEM file \(holding), or leave it null", at: location(key))
            } else if let problem = PEMFile.problem(file: file, kind: kind) {
                report("\(file): \(problem)", at: location(key))
            } else if redis.isNamed, !redis.usesTLS {
                report("\(key) is only used with TLS: the Redis URL is redis://, not rediss://", at: location(key))
            }
        }
        switch (redis.certFile, redis.keyFile) {
        case (.some, nil):
            report("certFile needs keyFile: the private key of the client certificate", at: location("certFile"))
        case (nil, .some):
            report("keyFile needs certFile: the client certificate of the private key", at: location("keyFile"))
        default: break
        }
    }
}
