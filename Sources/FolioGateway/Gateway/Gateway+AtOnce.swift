import FolioEngine
import HTTPTypes

extension Gateway {
    /// The answer to `request` when it can be given without waiting: a GET or HEAD whose answer
    /// is kept for a fresh snapshot held in memory (docs/DESIGN.md, "Kept answers on the event
    /// loop"). It is the answer `respond` would give, fields and all; nil when `respond` must
    /// answer (anything to wait for, to render, to report as an error, or to trace).
    ///
    /// It reads only the request's head and notes what happened in `record`: a cached page
    /// needs no Hummingbird `Request` (whose URI it would parse) and no request context.
    func answerAtOnce(_ request: HTTPRequest, record: RequestRecord) -> SentAnswer? {
        guard request.method == .get || request.method == .head, !observer.tracesRequest(request),
            (try? Admission.check(request, limits: configuration.limits)) != nil
        else { return nil }
        let target = RequestTarget(request.path ?? "/")
        record.path = target.path
        guard let match = try? table.match(rawPath: target.path) else { return nil }
        record.routeIndex = match.routeIndex
        guard
            var answer = lists.answer(
                request, route: routes[match.routeIndex], match: match, target: target, record: record)
        else { return nil }
        let requestID = RequestID.accept(request.headerFields[.xRequestID])
        decorate(&answer, request: request, record: record, requestID: requestID)
        return answer
    }

    /// The answer to a request the front door refuses before NIO's decoder sees it
    /// (docs/API.md, "Connections"): `CONNECT` or a method the decoder does not know (405 with
    /// `Allow`), or a request target past `limits.maxURLBytes` (414). As `respond` answers a
    /// refusal, with the route's CORS fields when the path is a route's; `Connection: close`
    /// is the front door's to add.
    func refusedAtOnce(_ request: HTTPRequest, tooLong targetBytes: Int?, record: RequestRecord) -> SentAnswer {
        let target = RequestTarget(request.path ?? "/")
        record.path = target.path
        record.routeIndex = table.lookup(rawPath: target.path).routeIndex
        var answer: SentAnswer
        if let targetBytes {
            let error = FolioError.uriTooLong(bytes: targetBytes, limit: configuration.limits.maxURLBytes)
            metrics.breached(error.limit)
            answer = Problem.answer(error)
        } else {
            let path = record.routeIndex.map { routes[$0].config.path.text } ?? String(target.path.prefix(200))
            let error = FolioError.methodNotAllowed(request.method.rawValue, path: path)
            answer = Problem.answer(error, extraHeaders: [.allow: CORSRules.allowedMethods])
        }
        let requestID = RequestID.accept(request.headerFields[.xRequestID])
        decorate(&answer, request: request, record: record, requestID: requestID)
        return answer
    }
}
