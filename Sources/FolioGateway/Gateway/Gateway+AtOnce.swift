import HTTPTypes
import Hummingbird

extension Gateway {
    /// The answer to `request` when it can be given without waiting: a GET or HEAD whose answer
    /// is kept for a fresh snapshot held in memory (docs/DESIGN.md, "Kept answers on the event
    /// loop"). It is the answer `respond` would give, fields and all; nil when `respond` must
    /// answer (anything to wait for, to render, to report as an error, or to trace).
    func answerAtOnce(_ request: Request, context: GatewayContext) -> SentAnswer? {
        guard request.method == .get || request.method == .head, !tracesRequest(request),
            (try? admit(request)) != nil
        else { return nil }
        let target = RequestTarget(request.head.path ?? "/")
        guard let match = try? table.match(rawPath: target.path) else { return nil }
        context.record.routeIndex = match.routeIndex
        let requestID = RequestID.accept(request.headers[.xRequestID])
        guard
            var answer = keptListAnswer(
                request, context: context, route: routes[match.routeIndex], match: match, target: target,
                requestID: requestID)
        else { return nil }
        if decorate(&answer.headers, request: request, context: context, requestID: requestID) {
            answer.keptHead = nil
        }
        return answer
    }
}
