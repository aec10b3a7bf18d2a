import FolioConfiguration
import FolioEngine
import FolioRedisStore
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Tracing

/// The gateway: matches a request to a configured route and answers it from the route's
/// snapshot, forwards it, or sends it to the fallback upstream.
///
/// One instance per loaded configuration; everything in it is immutable except the cache.
public final class Gateway: Sendable {
    let configuration: Configuration
    let routes: [CompiledRoute]
    let table: RouteTable
    let cache: FillCoalescer
    /// Forwards unsafe methods and fallback requests.
    let upstream: UpstreamClient
    /// Fetches and crawls lists into snapshots.
    let pipeline: FillPipeline
    /// Finds each list request's snapshot (cache, fill, stale, direct).
    let resolver: SnapshotResolver
    let logger: Logger
    /// `logger`'s handler when access lines can be written by it directly
    /// (`JSONLogHandler.writeAccess`: a JSON handler without metadata of its own), found once.
    let accessWriter: JSONLogHandler?
    let metrics: GatewayMetrics
    /// Spans for requests and fills (`GatewayTracing`); a no-op by default.
    let tracer: any Tracer
    /// Whether root traces may be recorded (an exporter is set): otherwise only requests that
    /// bring a `traceparent` get a server span.
    let recordsRootSpans: Bool

    /// `store` defaults to a memory store of `cache.maxBytes`; a reload's gateway gets its
    /// predecessor's store, and `succeeding` it shares its `FillLedger` (drop generations,
    /// fills in flight): a drop on either gateway stops the fills both began before it, and the new
    /// gateway's requests join the fills of routes whose config the reload left as it was.
    public init(
        configuration: Configuration,
        upstream: UpstreamClient,
        logger: Logger,
        metrics: GatewayMetrics = GatewayMetrics(),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        store: (any SnapshotStore)? = nil,
        tracer: any Tracer = NoOpTracer(),
        recordsRootSpans: Bool = false,
        succeeding predecessor: Gateway? = nil
    ) {
        self.configuration = configuration
        self.tracer = tracer
        self.recordsRootSpans = recordsRootSpans
        var routes: [CompiledRoute] = []
        for route in configuration.routes {
            routes.append(CompiledRoute(route, limits: configuration.limits, metrics: metrics.route(route.name)))
        }
        self.routes = routes
        self.table = RouteTable(patterns: configuration.routes.map(\.path))
        let cache = FillCoalescer(
            store: store ?? Self.memoryStore(cache: configuration.cache, metrics: metrics, now: now),
            ledger: predecessor?.cache.ledger ?? FillLedger(), routes: configuration.routes, now: now)
        self.cache = cache
        if let shared = cache.store as? SharedSnapshotStore {
            shared.describe(routes)
            shared.onRemoteDrop { route in cache.droppedElsewhere(route: route) }
        }
        self.upstream = upstream
        self.pipeline = FillPipeline(
            upstream: upstream, limits: configuration.limits, tracer: tracer, logger: logger, now: now)
        self.resolver = SnapshotResolver(cache: cache, pipeline: pipeline, metrics: metrics)
        self.logger = logger
        if let handler = logger.handler as? JSONLogHandler, handler.metadata.isEmpty {
            self.accessWriter = handler
        } else {
            self.accessWriter = nil
        }
        self.metrics = metrics
    }

    /// The default store: this process's memory, bounded by `cache.maxBytes`.
    static func memoryStore(
        cache: Configuration.CacheSettings, metrics: GatewayMetrics,
        now: @escaping @Sendable () -> ContinuousClock.Instant
    ) -> MemorySnapshotStore {
        let evictions = metrics.cacheEvictions
        return MemorySnapshotStore(
            maxBytes: cache.maxBytes, now: now,
            onEviction: { count in
                evictions.increment(by: Int64(count))
                MemoryReturner.shared.freed()
            })
    }

    /// Upstream client settings derived from the config's limits.
    public static func upstreamSettings(for configuration: Configuration) -> UpstreamSettings {
        let limits = configuration.limits
        return UpstreamSettings(
            connectTimeout: limits.connectTimeout,
            responseTimeout: limits.upstreamTimeout,
            maxBodyBytes: limits.maxUpstreamBytes
        )
    }

    /// Answers one client request; `context.record` says which route matched and how the
    /// cache answered.
    public func respond(to request: Request, context: GatewayContext) async -> Response {
        let requestID = RequestID.accept(request.headers[.xRequestID])
        var response: Response
        do {
            response = try await route(request, context: context, requestID: requestID)
        } catch let error as FolioError {
            response = Problem.response(error)
        } catch let error as UpstreamError {
            response = Problem.response(error.folioError)
        } catch {
            logger.error("unexpected error", metadata: ["folio.request_id": "\(requestID)", "error": "\(error)"])
            response = Problem.response(.internal)
        }
        decorate(&response.headers, request: request, context: context, requestID: requestID)
        return response
    }

    /// Refuses what no route may see: bad framing (400), breached request limits (414, 431),
    /// `CONNECT` (405), and targets that are no path or hold a dot segment (400).
    func admit(_ request: HTTPRequest) throws(FolioError) {
        try RequestFraming.check(request)
        try RequestLimits.check(request, limits: configuration.limits)
        try RequestTargetRules.check(request)
    }

    /// What every answer carries whoever wrote it: its request ID and CORS fields (kept answers
    /// given at once add the same after their kept fields: `Gateway+AtOnce`).
    func decorate(_ headers: inout HTTPFields, request: Request, context: GatewayContext, requestID: String) {
        HTTPFields.setOrAppend(&headers, .xRequestID, requestID)
        context.record.requestID = requestID
        let routeAnswer = context.record.routeIndex != nil
        // docs/API.md, "Headers on every page": an OPTIONS on a route path that is no preflight gets no allow headers,
        // even from an allowed origin (a preflight's are set by `CORSRules.preflight`).
        let plainOptions =
            routeAnswer && request.method == .options && request.headers[.accessControlRequestMethod] == nil
        CORSRules.decorate(
            &headers, origin: plainOptions ? nil : request.headers[.origin],
            allowed: configuration.server.cors.allowOrigins, routeAnswer: routeAnswer)
    }

    private func route(_ request: Request, context: GatewayContext, requestID: String) async throws -> Response {
        let target = RequestTarget(request.head.path ?? "/")
        context.record.path = target.path
        // The route is known before the request is admitted: a refusal on a route path is an
        // answer of that route, with its CORS fields (docs/API.md, "Headers on every page").
        let lookup = table.lookup(rawPath: target.path)
        context.record.routeIndex = lookup.routeIndex
        do {
            try admit(request.head)
        } catch {
            metrics.breached(error.limit)
            throw error
        }
        if RequestTargetRules.isAsteriskOptions(request.head) {
            return Response(status: .ok, headers: [.allow: CORSRules.allowedMethods, .contentLength: "0"])
        }
        let match: RouteMatch
        switch lookup {
        case .matched(let found): match = found
        case .refused(let refusal): throw refusal.error
        case .unmatched:
            return try await forwardToFallback(request, context: context, target: target, requestID: requestID)
        }
        let route = routes[match.routeIndex]
        switch request.method {
        case .get, .head:
            return try await serveList(
                request, context: context, route: route, match: match, target: target, requestID: requestID)
        case .options:
            return CORSRules.preflight(request, allowed: configuration.server.cors.allowOrigins)
        case .post, .put, .patch, .delete:
            return try await forwardUnsafe(
                request, context: context, route: route, match: match, target: target, requestID: requestID)
        default:
            var response = Problem.response(.methodNotAllowed(request.method.rawValue, path: route.config.path.text))
            response.headers[.allow] = CORSRules.allowedMethods
            return response
        }
    }
}

extension HTTPField.Name {
    static let xRequestID = Self("X-Request-ID")!
    static let xTotalCount = Self("X-Total-Count")!
    static let cacheStatus = Self("Cache-Status")!
    static let link = Self("Link")!
    static let xForwardedFor = Self("X-Forwarded-For")!
    static let forwarded = Self("Forwarded")!
}
