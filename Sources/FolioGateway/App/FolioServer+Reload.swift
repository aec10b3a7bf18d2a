import FolioConfiguration
import FolioEngine
import Logging

/// What a reload did (SIGHUP; docs/OPERATIONS.md, "Signals").
public struct ReloadResult: Sendable {
    /// Why the new config was refused; empty when it is serving.
    public let problems: [ConfigurationProblem]
    /// Routes whose snapshots were carried over (their config did not change).
    public let keptRoutes: [String]
    /// Settings that changed in the file but take effect only after a restart.
    public let needsRestart: [String]
    /// Whether `limits` changed the upstream client's settings, so a new client was built.
    public let rebuiltUpstreamClient: Bool

    public var applied: Bool { problems.isEmpty }

    static func refused(_ problems: [ConfigurationProblem]) -> ReloadResult {
        ReloadResult(problems: problems, keptRoutes: [], needsRestart: [], rebuiltUpstreamClient: false)
    }
}

extension FolioServer {
    /// Loads a config with `load` and, when it is valid, makes it current; otherwise logs every
    /// problem and keeps serving the old one.
    public func reload(_ load: () throws(ConfigurationError) -> Configuration) async -> ReloadResult {
        let configuration: Configuration
        do {
            configuration = try load()
        } catch {
            return refuse(error.problems)
        }
        return await reload(configuration: configuration)
    }

    /// Makes `configuration` current. Requests in flight finish on the old gateway; snapshots of
    /// routes whose config is unchanged are kept; the upstream client is rebuilt only when its
    /// settings change; listener changes are logged as needing a restart.
    public func reload(configuration: Configuration) async -> ReloadResult {
        let outcome: Result<(ReloadResult, removed: [String], store: any SnapshotStore), ConfigurationError> =
            current.reloading.withLock { _ in swap(to: configuration) }
        switch outcome {
        case .success(let (result, removed, store)):
            // The new gateway moved these routes' config epochs, so none of the old gateway's
            // fills still running installs them again.
            for route in removed { await store.remove(route: route) }
            current.gateway.watches.reloaded(keeping: result.keptRoutes)
            return result
        case .failure(let error):
            return refuse(error.problems)
        }
    }

    /// Builds and installs the new gateway; returns the names of old routes whose snapshots must
    /// go (removed, or changed config) and the store they are in.
    private func swap(
        to file: Configuration
    ) -> Result<(ReloadResult, removed: [String], store: any SnapshotStore), ConfigurationError> {
        let old = current.gateway
        let previous = old.configuration
        var needsRestart: [String] = []
        // What takes effect only at a restart keeps running as it is: the new gateway is built
        // with it (its store, its metrics), and the next reload compares with what runs, so a
        // file put back says nothing needs a restart.
        var configuration = file
        func keepRunning<Value: Equatable>(_ setting: WritableKeyPath<Configuration, Value>, _ name: String) {
            if file[keyPath: setting] != previous[keyPath: setting], !needsRestart.contains(name) {
                needsRestart.append(name)
            }
            configuration[keyPath: setting] = previous[keyPath: setting]
        }
        keepRunning(\.server.listen, "server.listen")
        keepRunning(\.server.admin, "server.admin")
        keepRunning(\.tracing, "tracing")
        keepRunning(\.cache.store, "cache.store / cache.redis")
        keepRunning(\.cache.redis, "cache.store / cache.redis")
        if ListenerSettings(configuration) != listenerSettings {
            needsRestart.append("server.idleTimeout / limits parser caps")
        }
        let settings = UpstreamSettings(configuration)
        let rebuild = settings != UpstreamSettings(previous)
        let upstream = rebuild ? UpstreamClient(settings: settings, tracer: old.tracer) : old.upstream
        var logger = old.logger
        if configuration.logging.level != previous.logging.level {
            logger.logLevel = Logger.Level(rawValue: configuration.logging.level.rawValue) ?? logger.logLevel
        }
        let gateway = Gateway(
            configuration: configuration, upstream: upstream, logger: logger, metrics: metrics, now: now,
            store: old.cache.store, tracer: old.tracer, recordsRootSpans: old.observer.recordsRootSpans, succeeding: old
        )
        // The store outlives the gateway: unchanged routes keep their snapshots.
        let kept = configuration.routes.filter { previous.routes.contains($0) }.map(\.name)
        let removed = previous.routes.map(\.name).filter { !kept.contains($0) }
        if configuration.cache.maxBytes != previous.cache.maxBytes, let memory = old.cache.store as? MemorySnapshotStore
        {
            memory.setMaxBytes(configuration.cache.maxBytes)
        }
        current.replace(with: gateway)

        for key in needsRestart {
            logger.warning("config change needs a restart", metadata: ["key": "\(key)"])
        }
        logger.notice(
            "config reloaded",
            metadata: [
                "routes": .stringConvertible(configuration.routes.count),
                "kept_routes": .array(kept.map { .string($0) }),
                "new_upstream_client": .stringConvertible(rebuild),
            ])
        return .success(
            (
                ReloadResult(
                    problems: [], keptRoutes: kept, needsRestart: needsRestart, rebuiltUpstreamClient: rebuild),
                removed, gateway.cache.store
            ))
    }

    private func refuse(_ problems: [ConfigurationProblem]) -> ReloadResult {
        let logger = current.gateway.logger
        for problem in problems {
            logger.error("config problem", metadata: ["problem": "\(problem.description)"])
        }
        logger.error(
            "config reload failed; the previous config keeps serving",
            metadata: ["problems": .stringConvertible(problems.count)])
        return .refused(problems)
    }
}
