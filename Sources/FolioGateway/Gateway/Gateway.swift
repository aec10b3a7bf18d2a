import FolioConfiguration
import FolioEngine
import FolioRedisStore
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Tracing

/// The gateway, a router (docs/DESIGN.md, "The gateway's parts"): matches a request to a
/// configured route, admits it, dispatches it (list requests to `lists`, unsafe methods and
/// unrouted paths to `forwarder`) and decorates the answer. It renders nothing and observes
/// nothing itself.
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
    let metrics: GatewayMetrics
    /// Spans for requests and fills (`GatewayTracing`); a no-op by default.
    let tracer: any Tracer
    /// Metrics, access lines and spans of this gateway's requests, for the responder.
    let observer: RequestObserver
    /// Answers GET and HEAD on route paths, at once or waiting.
    let lists: ListEndpoint
    /// Answers unsafe methods and unrouted paths from upstream.
    let forwarder: Forwarder
    /// The server's open event streams (docs/API.md, "Watching a list"), shared by a reload's gateways.
    let watches: WatchHub

    /// `store` defaults to a memory store of `cache.maxBytes`. A reload's gateway gets its predecessor's store,
    /// and `succeeding` it shares its `FillLedger` (a drop on either stops the fills both began before it; new
    /// requests join fills of unchanged routes) and its `WatchHub` (event streams go on across the reload).
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
        let ownHub = predecessor == nil
        let watches = predecessor?.watches ?? WatchHub(metrics: metrics)
        self.watches = watches
        self.configuration = configuration
        self.tracer = tracer
        let routes = configuration.routes.map {
            CompiledRoute($0, limits: configuration.limits, metrics: metrics.route($0.name))
        }
        self.routes = routes
        self.table = RouteTable(patterns: configuration.routes.map(\.path))
        let cache = FillCoalescer(
            store: store ?? MemorySnapshotStore.gatewayDefault(cache: configuration.cache, metrics: metrics, now: now),
            ledger: predecessor?.cache.ledger ?? FillLedger(), routes: configuration.routes, events: watches, now: now)
        self.cache = cache
        (cache.store as? SharedSnapshotStore)?.serve(routes, cache: cache, watches: watches)
        self.upstream = upstream
        self.pipeline = FillPipeline(
            upstream: upstream, limits: configuration.limits, tracer: tracer, logger: logger, now: now)
        let resolver = SnapshotResolver(cache: cache, pipeline: pipeline, metrics: metrics)
        self.resolver = resolver
        let server = configuration.server
        self.lists = ListEndpoint(
            resolver: resolver, cache: cache,
            renderer: ListRenderer(publicBaseURL: server.publicBaseURL, compression: server.compression),
            trustedProxies: server.trustedProxies, watches: watches, watch: server.watch,
            eventKey: SharedSnapshotStore.eventKeys(cache.store))
        self.forwarder = Forwarder(
            upstream: upstream, cache: cache, metrics: metrics, fallbackUpstream: server.fallbackUpstream,
            trustedProxies: server.trustedProxies, maxRequestBodyBytes: configuration.limits.maxRequestBodyBytes)
        self.logger = logger
        self.metrics = metrics
        self.observer = RequestObserver(
            routes: routes, metrics: metrics, logger: logger, logsAccess: configuration.logging.access, tracer: tracer,
            recordsRootSpans: recordsRootSpans)
        // A gateway alone (tests) refreshes its own watched keys; a server's hub follows its current gateway.
        if ownHub { watches.attach { [weak self] in self } }
    }

    /// The route called `name` in this gateway's config.
    func route(named name: String) -> CompiledRoute? {
        routes.first { $0.name == name }
    }

    /// Answers one client request; `context.record` says which route matched and how the
    /// cache answered.
    func respond(to request: Request, context: GatewayContext) async -> SentAnswer {
        let head = request.head
        let requestID = RequestID.accept(head.headerFields[.xRequestID])
        var answer: SentAnswer
        do {
            answer = try await route(request, context: context, requestID: requestID)
        } catch let error as FolioError {
            answer = Problem.answer(error)
        } catch let error as UpstreamError {
            answer = Problem.answer(error.folioError)
        } catch {
            logger.error("unexpected error", metadata: ["folio.request_id": "\(requestID)", "error": "\(error)"])
            answer = Problem.answer(.internal)
        }
        decorate(&answer, request: head, record: context.record, requestID: requestID)
        return answer
    }

    private func route(_ request: Request, context: GatewayContext, requestID: String) async throws -> SentAnswer {
        let head = request.head
        let target = RequestTarget(head.path ?? "/")
        context.record.path = target.path
        // The route is known before the request is admitted: a refusal on a route path is an
        // answer of that route, with its CORS fields (docs/API.md, "Headers on every page").
        let lookup = table.lookup(rawPath: target.path)
        context.record.routeIndex = lookup.routeIndex
        do {
            try Admission.check(head, limits: configuration.limits)
        } catch {
            metrics.breached(error.limit)
            throw error
        }
        if RequestTargetRules.isAsteriskOptions(head) {
            return SentAnswer(status: .ok, headers: [.allow: CORSRules.allowedMethods, .contentLength: "0"])
        }
        let match: RouteMatch
        switch lookup {
        case .matched(let found): match = found
        case .refused(let refusal): throw refusal.error
        case .unmatched:
            return try await forwarder.fallback(
                request, peerAddress: context.peerAddress, target: target, requestID: requestID,
                record: context.record)
        }
        let route = routes[match.routeIndex]
        switch head.method {
        case .get, .head:
            return try await lists.answer(
                head, peer: context.peer, route: route, match: match, target: target, requestID: requestID,
                record: context.record)
        case .options:
            return CORSRules.preflight(head, allowed: configuration.server.cors.allowOrigins)
        case .post, .put, .patch, .delete:
            return try await forwarder.unsafe(
                request, peerAddress: context.peerAddress, route: route, match: match, target: target,
                requestID: requestID, record: context.record)
        default:
            var answer = Problem.answer(.methodNotAllowed(head.method.rawValue, path: route.config.path.text))
            answer.headers[.allow] = CORSRules.allowedMethods
            return answer
        }
    }
}
