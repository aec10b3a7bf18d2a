import HTTPTypes
import Hummingbird
import Logging

extension Gateway {
    /// Longest path written to the access log; longer ones are cut (a 414 may carry 8 KiB).
    static let loggedPathLimit = 2048

    /// Records one answered request: metrics always, the access log line when `logging.access`.
    /// `record` says what the gateway did; `peerAddress` is the client's, for the log.
    func observe(
        _ request: HTTPRequest, record: RequestRecord, peerAddress: String?, status: HTTPResponse.Status,
        headers: HTTPFields, duration: Duration
    ) {
        let route = record.routeIndex.map { routes[$0] }
        let routeMetrics = route?.metrics ?? metrics.unrouted
        routeMetrics.request(status: status.code, duration: duration)
        if route != nil, let outcome = record.cache {
            routeMetrics.cacheLookup(outcome.result)
            if outcome.waited { metrics.coalescedWaiters.increment() }
        }
        guard configuration.logging.access, logger.logLevel <= .info else { return }
        let access = accessLine(
            request, record: record, peerAddress: peerAddress, status: status, headers: headers, route: route,
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
        headers: HTTPFields, route: CompiledRoute?, duration: Duration
    ) -> AccessLine {
        let path = record.path ?? RequestTarget(request.path ?? "/").path
        return AccessLine(
            cacheStatus: record.cacheStatus ?? headers[.cacheStatus],
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
