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
        context.record.path = target.path
        guard let match = try? table.match(rawPath: target.path) else { return nil }
        context.record.routeIndex = match.routeIndex
        guard
            var answer = keptListAnswer(
                request, context: context, route: routes[match.routeIndex], match: match, target: target)
        else { return nil }
        let requestID = RequestID.accept(request.headers[.xRequestID])
        decorate(&answer, request: request, context: context, requestID: requestID)
        return answer
    }

    /// `decorate` for a kept answer, whose fields carry neither a request ID nor CORS: they are
    /// added after its kept fields, which are copied (and their bytes not used) only when one of
    /// them must change.
    private func decorate(_ answer: inout SentAnswer, request: Request, context: GatewayContext, requestID: String) {
        context.record.requestID = requestID
        answer.added.append(HTTPField(name: .xRequestID, value: requestID))
        if !CORSRules.appendRouteFields(
            to: &answer.added, origin: request.headers[.origin], allowed: configuration.server.cors.allowOrigins)
        {
            var fields = answer.allFields
            answer.added = []
            CORSRules.decorate(
                &fields, origin: request.headers[.origin], allowed: configuration.server.cors.allowOrigins,
                routeAnswer: true)
            answer.headers = fields
            answer.keptHead = nil
        }
    }
}
