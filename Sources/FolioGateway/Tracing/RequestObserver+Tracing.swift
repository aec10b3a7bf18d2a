import HTTPTypes
import Tracing

extension HTTPField.Name {
    static let traceparent = Self("traceparent")!
}

extension RequestObserver {
    /// Whether `request` gets a server span: always with an exporter, else when it brings a
    /// `traceparent`.
    func tracesRequest(_ request: HTTPRequest) -> Bool {
        recordsRootSpans || request.headerFields[.traceparent] != nil
    }

    /// The server span of one client request, continuing the client's `traceparent` (trusted
    /// from any peer: it only links traces). Nil when nothing would read it: no exporter and no
    /// client trace to continue. A fill's upstream fetch then starts its own (unsampled) trace,
    /// so `traceparent` still goes upstream, and a cached page costs no span at all (two random
    /// ids a request took 17% of a cached page's throughput; BENCHMARKS.md "Tracing").
    ///
    /// The tracer reads only what `ClientTraceContext` validated (docs/API.md, "Trace
    /// context"); what was ignored is logged at debug level as a static reason, never a value.
    func startRequestSpan(_ request: HTTPRequest) -> (any Span)? {
        guard tracesRequest(request) else { return nil }
        var parent = ServiceContext.topLevel
        var flaws: [ClientTraceContext.Flaw] = []
        if let client = ClientTraceContext.read(request.headerFields, flaws: &flaws) {
            tracer.extract(client, into: &parent, using: ClientTraceContextExtractor())
        }
        if !flaws.isEmpty {
            logger.debug(
                "trace context ignored", metadata: ["reason": .string(flaws.map(\.rawValue).joined(separator: "; "))])
        }
        let span = tracer.startSpan(request.method.rawValue, context: parent, ofKind: .server)
        if span.isRecording {
            span.attributes[SpanAttributeName.method] = request.method.rawValue
            span.attributes[SpanAttributeName.path] = String(RequestTarget(request.path ?? "/").path)
        }
        return span
    }

    /// Names the span after the matched route (`GET /objects`) and records the answer.
    func endRequestSpan(_ span: any Span, status: HTTPResponse.Status, record: RequestRecord) {
        if span.isRecording {
            let status = Int(status.code)
            if let routeIndex = record.routeIndex {
                let route = routes[routeIndex]
                span.operationName = "\(span.operationName) \(route.config.path.text)"
                span.attributes[SpanAttributeName.route] = route.config.path.text
                span.attributes[SpanAttributeName.folioRoute] = route.name
            }
            span.attributes[SpanAttributeName.status] = status
            if let cacheStatus = record.cacheStatus { span.attributes[SpanAttributeName.cacheStatus] = cacheStatus }
            if status >= 500 { span.setStatus(.init(code: .error)) }
        }
        span.end()
    }
}
