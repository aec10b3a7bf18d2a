import FolioConfiguration
import FolioEngine
import FolioRedisStore
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Prometheus
import ServiceLifecycle

/// Everything `folio serve` runs, assembled in one place so tests run the real thing.
///
/// Run it with `ServerLifecycle` (drain on SIGTERM/SIGINT, reload on SIGHUP, exit status), or run
/// `application` for the listeners alone (tests: `application.test(.live)`).
public struct FolioServer: Sendable {
    /// The client listener with the admin listener and the upstream clients' lifecycle attached
    /// as services: one application, without drain or signal handling.
    public let application: Application<GatewayResponder>
    public let readiness: Readiness
    /// Counters and histograms of every gateway this server has loaded (reloads included).
    public let metrics: GatewayMetrics
    let current: CurrentGateway
    /// The client listener alone, for `ServerLifecycle`, which orders it against the admin listener.
    let listener: Application<GatewayResponder>
    let admin: (any Service)?
    /// What the listeners were built with; a reload cannot change it.
    let listenerSettings: ListenerSettings
    let logger: Logger
    let now: @Sendable () -> ContinuousClock.Instant
    /// The process's tracer and its exporter (`tracing:`, read once).
    let tracing: GatewayTracing
    /// With `cache.store: redis`: the events subscription and the ping that finds Redis back.
    let sharedStore: SharedStoreService?

    /// The gateway answering new requests (replaced by a reload).
    public var gateway: Gateway { current.gateway }
    /// The upstream client of the current gateway.
    public var upstream: UpstreamClient { current.gateway.upstream }
}

/// What `buildApplication` would refuse in a configuration the loader accepted (the
/// configuration target has no TLS library): a `cache.redis` PEM file with a certificate or
/// key that does not parse, or a key that is not its certificate's. `folio serve` checks them
/// before it builds, and `folio validate` reports them, each as a problem of `file` at the key.
public func startupProblems(_ configuration: Configuration, file: String) -> [ConfigurationProblem] {
    guard configuration.cache.store == .redis, configuration.cache.redis.usesTLS else { return [] }
    do {
        _ = try SharedSnapshotStore.tls(configuration.cache.redis)
        return []
    } catch {
        let position = configuration.cache.redis.filePositions[error.key]
        return [
            ConfigurationProblem(
                file: file, line: position?.line ?? 1, column: position?.column ?? 1, path: "cache.redis.\(error.key)",
                message: "\(error.file): \(error.problem)")
        ]
    }
}

/// Builds the gateway application for `configuration`.
///
/// - Parameters:
///   - logger: used for every log line, access log included; nothing is bootstrapped here.
///   - metrics: the registry `/metrics` renders; a fresh one when not given.
///   - onListening: called with the bound port of the client listener.
///   - onAdminListening: called with the bound port of the admin listener (when enabled).
///   - store: where snapshots live; when not given, what `cache.store` says (a
///     `MemorySnapshotStore` bounded by `cache.maxBytes`, or a `SharedSnapshotStore` on Redis).
public func buildApplication(
    configuration: Configuration,
    logger: Logger,
    metrics registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
    now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
    onListening: @escaping @Sendable (Int) async -> Void = { _ in },
    onAdminListening: @escaping @Sendable (Int) async -> Void = { _ in },
    store: (any SnapshotStore)? = nil
) throws -> FolioServer {
    let metrics = GatewayMetrics(registry: registry)
    // What may throw comes before the upstream client, which must be shut down once made.
    var store = store
    var sharedStore: SharedStoreService?
    if store == nil,
        let (shared, service) = try SharedSnapshotStore.make(
            configuration.cache, metrics: metrics, logger: logger, now: now)
    {
        store = shared
        sharedStore = service
    }
    let tracing = try GatewayTracing(configuration.tracing, logger: logger, registry: registry)
    let upstream = UpstreamClient(settings: UpstreamSettings(configuration), tracer: tracing.tracer)
    let gateway = Gateway(
        configuration: configuration, upstream: upstream, logger: logger, metrics: metrics, now: now, store: store,
        tracer: tracing.tracer, recordsRootSpans: tracing.recordsRootSpans)
    logCacheBound(configuration.cache, logger: logger)
    let current = CurrentGateway(gateway)
    gateway.watches.attach { [current] in current.gateway }
    let readiness = Readiness()
    let settings = ListenerSettings(configuration)
    let listen = configuration.server.listen
    let responder = GatewayResponder(current: current)
    let listener = Application(
        responder: responder,
        server: HTTPServerBuilder { respond in
            KeptAnswerChannel(
                http1: HTTP1Channel(responder: respond, configuration: settings.http1), responder: responder,
                idleTimeout: TimeAmount(settings.idleTimeout))
        },
        configuration: ApplicationConfiguration(address: .hostname(listen.host, port: listen.port), serverName: nil),
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? 0
            readiness.markListening()
            logger.info(
                "listening",
                metadata: ["listener": "client", "host": "\(listen.host)", "port": .stringConvertible(port)])
            await onListening(port)
        },
        logger: logger
    )
    var admin: (any Service)?
    if let address = configuration.server.admin {
        let endpoints = AdminEndpoints.application(
            address: address, current: current, readiness: readiness, idleTimeout: settings.idleTimeout,
            logger: logger,
            onServerRunning: { port in
                logger.info(
                    "listening",
                    metadata: ["listener": "admin", "host": "\(address.host)", "port": .stringConvertible(port)])
                await onAdminListening(port)
            })
        admin = NamedListener(key: "server.admin", address: address, service: endpoints)
    }
    var application = listener
    application.addServices(tracing.service)
    if let admin { application.addServices(admin) }
    application.addServices(UpstreamClientsService(current: current))
    if let sharedStore { application.addServices(sharedStore) }
    application.addServices(WatchHubService(hub: gateway.watches))
    return FolioServer(
        application: application, readiness: readiness, metrics: metrics, current: current, listener: listener,
        admin: admin, listenerSettings: settings, logger: logger, now: now, tracing: tracing,
        sharedStore: sharedStore)
}

/// The client listener's own settings: the idle timeout and the HTTP parser's caps, which sit
/// above Folio's limits so breaches get Folio's 414/431 instead of a bare 400.
struct ListenerSettings: Equatable, Sendable {
    var idleTimeout: Duration
    var maxHeaderFieldSize: Int
    var maxHeaderListSize: Int
    var maxHeaderFieldCount: Int

    init(_ configuration: Configuration) {
        let limits = configuration.limits
        idleTimeout = configuration.server.idleTimeout
        maxHeaderFieldSize = max(80 * 1024, limits.maxURLBytes * 2, limits.maxHeaderBytes * 2)
        // The parser counts the request target in the head's size too: a target up to
        // `maxURLBytes` must pass it (docs/API.md, "Connections").
        maxHeaderListSize = max(80 * 1024, limits.maxURLBytes * 2 + limits.maxHeaderBytes * 2)
        maxHeaderFieldCount = max(1000, limits.maxHeaderCount * 2)
    }

    var http1: HTTP1Channel.Configuration {
        let decoder = HTTP1Channel.Configuration.DecoderConfiguration(
            maxHeaderFieldSize: maxHeaderFieldSize,
            maxHeaderListSize: maxHeaderListSize,
            maxHeaderFieldCount: maxHeaderFieldCount
        )
        // No idle timeout here: `FrontDoorHandler` keeps it (it answers requests Hummingbird never sees).
        return HTTP1Channel.Configuration(idleTimeout: nil, httpDecoderConfiguration: decoder)
    }
}

/// Says once at start which cache bound is in force, and where `auto` got it from.
func logCacheBound(_ cache: Configuration.CacheSettings, logger: Logger) {
    var metadata: Logger.Metadata = ["max_bytes": .stringConvertible(cache.processBound)]
    if cache.store == .redis { metadata["store"] = "redis (local layer: cache.redis.localMaxBytes)" }
    if let limit = cache.memoryLimit {
        metadata["source"] = "auto"
        metadata["memory_limit"] = limit.map { .stringConvertible($0) } ?? "none"
    } else {
        metadata["source"] = "config"
    }
    logger.info("cache bound", metadata: metadata)
}
