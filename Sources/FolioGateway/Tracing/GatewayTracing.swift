import FolioConfiguration
import Logging
import OTel
import Prometheus
import ServiceLifecycle
import Tracing

/// The process's tracer (README, "Traces"): W3C trace context in and out, a span per request
/// with child spans for upstream fetches and crawls, OTLP/HTTP export when
/// `tracing.otlpEndpoint` is set.
///
/// Without an endpoint, root traces are not recorded (nothing would read them) but every span
/// still has an id, so `traceparent` goes upstream on every request, and a client's sampled
/// trace is continued. Spans go out as OTLP protobuf over HTTP, what a collector's OTLP receiver
/// takes by default: swift-otel encodes them, `SpanRelay` and `SpanDelivery` send them (retries,
/// counts, logs). `OTEL_*` environment variables override these settings (OpenTelemetry's).
public struct GatewayTracing: Sendable {
    public let tracer: any Tracer
    /// Batches and exports finished spans; runs with the listeners and flushes when they stop.
    public let service: any Service
    /// An exporter is set, so root traces may be sampled and recorded.
    public let recordsRootSpans: Bool

    /// `registry` gets the export counters; `retry` is how failed exports are sent again.
    init(
        _ settings: Configuration.Tracing, logger: Logger, registry: PrometheusCollectorRegistry,
        retry: ExportRetry = ExportRetry()
    ) throws {
        var configuration = OTel.Configuration.default
        configuration.serviceName = settings.serviceName
        // The library's own lines, bounded (`LibraryLogHandler`).
        let diagnostics = Logger(label: logger.label) { _ in LibraryLogHandler(wrapping: logger) }
        configuration.diagnosticLogger = .custom(diagnostics)
        configuration.propagators = [.traceContext]
        configuration.metrics.enabled = false
        configuration.logs.enabled = false
        var delivery: SpanDelivery?
        var relay: SpanRelay?
        if let url = settings.tracesURL {
            let sender = SpanDelivery(
                url: url, retry: retry, logger: logger, metrics: TraceExportMetrics(registry: registry))
            let door = try SpanRelay(delivery: sender)
            (delivery, relay) = (sender, door)
            configuration.traces.exporter = .otlp
            configuration.traces.otlpExporter.endpoint = door.url
            configuration.traces.otlpExporter.headers = [(SpanRelay.secretHeader, door.secret)]
            // Protobuf: the library's JSON writes ids in base64, which collectors refuse (OTLP
            // wants hex there).
            configuration.traces.otlpExporter.protocol = .httpProtobuf
            configuration.traces.sampler = .parentBasedTraceIDRatio(ratio: settings.sampleRatio) ?? .parentBasedAlwaysOn
        } else {
            configuration.traces.exporter = .none
            configuration.traces.sampler = .parentBasedAlwaysOff
        }
        let (tracer, service) = try OTel.makeTracingBackend(configuration: configuration)
        self.tracer = tracer
        self.service = TracingService(library: service, delivery: delivery, relay: relay)
        self.recordsRootSpans = settings.tracesURL != nil
    }
}

/// The span attribute names Folio sets (OpenTelemetry's HTTP semantic conventions, plus its own).
enum SpanAttributeName {
    static let method = "http.request.method"
    static let route = "http.route"
    static let status = "http.response.status_code"
    static let path = "url.path"
    static let folioRoute = "folio.route"
    static let cacheStatus = "folio.cache_status"
    static let serverAddress = "server.address"
    static let serverPort = "server.port"
    static let bodySize = "http.response.body.size"
    static let items = "folio.items"
}

extension Span {
    /// An upstream exchange's target: host, port and path, never the query (which may carry a
    /// client's parameters) or credentials.
    func describe(url: String) {
        guard let parsed = try? UpstreamURL(url) else { return }
        attributes[SpanAttributeName.serverAddress] = parsed.host
        attributes[SpanAttributeName.serverPort] = parsed.port
        attributes[SpanAttributeName.path] = String(parsed.path.prefix { $0 != "?" })
    }
}
