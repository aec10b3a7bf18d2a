import Hummingbird
import Logging

extension Gateway {
    /// Longest path written to the access log; longer ones are cut (a 414 may carry 8 KiB).
    static let loggedPathLimit = 2048

    /// Records one answered request: metrics always, the access log line when `logging.access`.
    func observe(_ request: Request, context: GatewayContext, response: Response, duration: Duration) {
        let route = context.record.routeIndex.map { routes[$0] }
        let routeMetrics = route?.metrics ?? metrics.unrouted
        let status = response.status.code
        routeMetrics.request(status: status, duration: duration)
        if route != nil, let result = context.record.cache?.result {
            routeMetrics.cacheLookup(result)
            if result == .collapsed { metrics.coalescedWaiters.increment() }
        }
        guard configuration.logging.access, logger.logLevel <= .info else { return }
        logger.info(
            "request",
            metadata: accessFields(request, context: context, response: response, route: route, duration: duration))
    }

    /// The access log fields. The path is logged without its query (which may carry secrets);
    /// no request header is logged, so `Authorization` and `Cookie` never reach the log.
    func accessFields(
        _ request: Request, context: GatewayContext, response: Response, route: CompiledRoute?, duration: Duration
    ) -> Logger.Metadata {
        let path = RequestTarget(request.head.path ?? "/").path
        // Milliseconds, to the microsecond.
        let milliseconds = (duration.fractionalMilliseconds * 1000).rounded() / 1000
        var fields: Logger.Metadata = [
            "method": .string(request.method.rawValue),
            "path": .string(String(path.prefix(Self.loggedPathLimit))),
            "route": .string(route?.name ?? RouteMetrics.unroutedName),
            "status": .stringConvertible(response.status.code),
            "duration_ms": .stringConvertible(milliseconds),
            "request_id": .string(response.headers[.xRequestID] ?? ""),
        ]
        if let cacheStatus = response.headers[.cacheStatus] { fields["cache_status"] = .string(cacheStatus) }
        if let peer = context.peerAddress { fields["peer"] = .string(peer) }
        return fields
    }
}
