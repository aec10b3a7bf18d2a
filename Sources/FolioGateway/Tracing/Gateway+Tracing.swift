import Hummingbird
import Tracing

extension Gateway {
    /// The server span of one client request, continuing the client's `traceparent` (trusted
    /// from any peer: it only links traces).
    func startRequestSpan(_ request: Request) -> any Span {
        var parent = ServiceContext.topLevel
        tracer.extract(request.headers, into: &parent, using: HTTPFieldsExtractor())
        let span = tracer.startSpan(request.method.rawValue, context: parent, ofKind: .server)
        if span.isRecording {
            span.attributes[SpanAttributeName.method] = request.method.rawValue
            span.attributes[SpanAttributeName.path] = String(RequestTarget(request.head.path ?? "/").path)
        }
        return span
    }

    /// Names the span after the matched route (`GET /objects`) and records the answer.
    func endRequestSpan(_ span: any Span, response: Response, routeIndex: Int?) {
        if span.isRecording {
            let status = Int(response.status.code)
            if let routeIndex {
                let route = routes[routeIndex]
                span.operationName = "\(span.operationName) \(route.config.path.text)"
                span.attributes[SpanAttributeName.route] = route.config.path.text
                span.attributes[SpanAttributeName.folioRoute] = route.name
            }
            span.attributes[SpanAttributeName.status] = status
            if let cacheStatus = response.headers[.cacheStatus] { span.attributes[SpanAttributeName.cacheStatus] = cacheStatus }
            if status >= 500 { span.setStatus(.init(code: .error)) }
        }
        span.end()
    }
}
