import Hummingbird
import Tracing

/// The one responder of the client listener: every path goes through Folio's own route
/// matcher (Hummingbird's router cannot express the rules of docs/CONFIG.md, "Route paths").
///
/// Each request takes the current gateway once and finishes on it, so a reload never changes
/// the config under a request; the count of requests per gateway tells a reload when the old
/// gateway's upstream client may go.
public struct GatewayResponder: HTTPResponder {
    public typealias Context = GatewayContext
    let current: CurrentGateway

    public func respond(to request: Request, context: GatewayContext) async throws -> Response {
        // Built here, at the edge: the gateway answers in `SentAnswer`s, as the front door writes them.
        await answer(to: request, context: context).response
    }

    /// The gateway's answer to `request`, observed (metrics, access line, span).
    func answer(to request: Request, context: GatewayContext) async -> SentAnswer {
        let generation = current.current
        generation.inFlight.add(1, ordering: .relaxed)
        defer { generation.inFlight.subtract(1, ordering: .releasing) }
        let start = ContinuousClock.now
        let gateway = generation.gateway
        let answer: SentAnswer
        if let span = gateway.observer.startRequestSpan(request.head) {
            answer = await ServiceContext.$current.withValue(span.context) {
                await gateway.respond(to: request, context: context)
            }
            gateway.observer.endRequestSpan(span, status: answer.status, record: context.record)
        } else {
            answer = await gateway.respond(to: request, context: context)
        }
        gateway.observer.observe(
            request.head, record: context.record, peerAddress: context.peerAddress, status: answer.status,
            duration: start.duration(to: .now))
        return answer
    }

    /// The answer `respond` would give, when it can be given without waiting (`KeptAnswerHandler`
    /// writes it on the event loop that read the request); nil: `respond` must answer.
    func answerAtOnce(to request: HTTPRequest, peerAddress: String?) -> SentAnswer? {
        let generation = current.current
        generation.inFlight.add(1, ordering: .relaxed)
        defer { generation.inFlight.subtract(1, ordering: .releasing) }
        let start = ContinuousClock.now
        let gateway = generation.gateway
        let record = RequestRecord()
        guard let answer = gateway.answerAtOnce(request, record: record) else { return nil }
        gateway.metrics.answersAtOnce.increment()
        gateway.observer.observe(
            request, record: record, peerAddress: peerAddress, status: answer.status,
            duration: start.duration(to: .now))
        return answer
    }

    /// The front door's refusal of `request` (`Gateway.refusedAtOnce`), counted and logged like
    /// every answer.
    func refusal(to request: HTTPRequest, tooLong targetBytes: Int?, peerAddress: String?) -> SentAnswer {
        let start = ContinuousClock.now
        let gateway = current.gateway
        let record = RequestRecord()
        let answer = gateway.refusedAtOnce(request, tooLong: targetBytes, record: record)
        gateway.observer.observe(
            request, record: record, peerAddress: peerAddress, status: answer.status,
            duration: start.duration(to: .now))
        return answer
    }
}
