import HTTPTypes
import Logging
import Tracing

/// Records each answered request (docs/DESIGN.md, "The gateway's parts"): metrics, the access
/// line and the request's span (`RequestObserver+Tracing`). Built with its gateway, whose routes
/// it names, and called by the responder only: the gateway answers, it never observes.
struct RequestObserver: Sendable {
    let routes: [CompiledRoute]
    let metrics: GatewayMetrics
    let logger: Logger
    /// `logger`'s handler when access lines can be written by it directly
    /// (`JSONLogHandler.writeAccess`: a JSON handler without metadata of its own), found once.
    let accessWriter: JSONLogHandler?
    /// `logging.access`.
    let logsAccess: Bool
    /// Spans for requests (`GatewayTracing`); a no-op by default.
    let tracer: any Tracer
    /// Whether root traces may be recorded (an exporter is set): otherwise only requests that
    /// bring a `traceparent` get a server span.
    let recordsRootSpans: Bool

    init(
        routes: [CompiledRoute], metrics: GatewayMetrics, logger: Logger, logsAccess: Bool, tracer: any Tracer,
        recordsRootSpans: Bool
    ) {
        self.routes = routes
        self.metrics = metrics
        self.logger = logger
        if let handler = logger.handler as? JSONLogHandler, handler.metadata.isEmpty {
            self.accessWriter = handler
        } else {
            self.accessWriter = nil
        }
        self.logsAccess = logsAccess
        self.tracer = tracer
        self.recordsRootSpans = recordsRootSpans
    }

    /// Longest path written to the access log; longer ones are cut (a 414 may carry 8 KiB).
    static let loggedPathLimit = 2048

    /// Records one answered request: metrics always, the access log line when `logging.access`.
    /// `record` says what the gateway did; `peerAddress` is the client's, for the log.
    func observe(
        _ request: HTTPRequest, record: RequestRecord, peerAddress: String?, status: HTTPResponse.Status,
        duration: Duration
    ) {
        let route = record.routeIndex.map { routes[$0] }
        let routeMetrics = route?.metrics ?? metrics.unrouted
        routeMetrics.request(status: status.code, duration: duration)
        if route != nil, let outcome = record.cache, outcome.isLookup {
            routeMetrics.cacheLookup(outcome.result)
            if outcome.waited { metrics.coalescedWaiters.increment() }
        }
        guard logsAccess, logger.logLevel <= .info else { return }
        let access = accessLine(
            request, record: record, peerAddress: peerAddress, status: status, route: route,
            duration: duration)
        if let accessWriter {
            accessWriter.writeAccess(access)
        } else {
            logger.info("request", metadata: access.metadata)
        }
    }

    /// The access log fields. The path is logged without its query (which may carry secrets);
    /// no request header is logged, so `Authorization` and `Cookie` never reach the log.
    func accessLine(
        _ request: HTTPRequest, record: RequestRecord, peerAddress: String?, status: HTTPResponse.Status,
        route: CompiledRoute?, duration: Duration
    ) -> AccessLine {
        let path = record.path ?? RequestTarget(request.path ?? "/").path
        return AccessLine(
            cacheStatus: record.cacheStatus,
            // Milliseconds, to the microsecond.
            durationMilliseconds: (duration.fractionalMilliseconds * 1000).rounded() / 1000,
            method: request.method.rawValue, path: path.prefix(Self.loggedPathLimit), peer: peerAddress,
            requestID: record.requestID, route: route?.name ?? RouteMetrics.unroutedName,
            status: status.code)
    }
}

extension AccessLine {
    /// The same fields for any other log handler.
    var metadata: Logger.Metadata {
        var fields: Logger.Metadata = [
            "method": .string(method),
            "path": .string(String(path)),
            "route": .string(route),
            "status": .stringConvertible(status),
            "duration_ms": .stringConvertible(durationMilliseconds),
            "request_id": .string(requestID),
        ]
        if let cacheStatus { fields["cache_status"] = .string(cacheStatus) }
        if let peer { fields["peer"] = .string(peer) }
        return fields
    }
}
