import NIOHTTP1
import Tracing

/// Reads `traceparent`/`tracestate` from a client's trace context as Folio validated it, never
/// from the request's fields (`ClientTraceContext` says why).
struct ClientTraceContextExtractor: Extractor {
    func extract(key: String, from carrier: ClientTraceContext) -> String? {
        switch key {
        case "traceparent": carrier.traceparent
        case "tracestate": carrier.tracestate
        default: nil
        }
    }
}

/// Writes `traceparent`/`tracestate` into an upstream request's headers.
struct HTTPHeadersInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout HTTPHeaders) {
        carrier.replaceOrAdd(name: key, value: value)
    }
}
