import Prometheus

/// What became of the span batches sent to the collector (`folio_trace_export_batches_total`,
/// `folio_trace_export_retries_total`; docs/OPERATIONS.md, "Metrics").
struct TraceExportMetrics: Sendable {
    let sent: Counter
    let dropped: Counter
    let retries: Counter

    init(registry: PrometheusCollectorRegistry) {
        let batches = GatewayMetrics.traceExportBatches.descriptor
        sent = registry.makeCounter(descriptor: batches, labels: [("outcome", "sent")])
        dropped = registry.makeCounter(descriptor: batches, labels: [("outcome", "dropped")])
        retries = registry.makeCounter(descriptor: GatewayMetrics.traceExportRetries.descriptor)
    }
}
