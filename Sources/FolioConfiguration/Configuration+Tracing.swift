extension Configuration {
    /// `tracing:` (docs/OPERATIONS.md, "Traces"). Read once at start: a reload that changes it is logged as
    /// needing a restart (the tracer and its exporter live as long as the process).
    public struct Tracing: Sendable, Equatable {
        /// `otlpEndpoint`: the collector's OTLP/HTTP base (`http://otel-collector:4318`); spans
        /// go to `/v1/traces` under it unless the path already ends there. Nil: nothing is
        /// exported, `traceparent` is still propagated. Default nil.
        public var otlpEndpoint: String?
        /// `serviceName`: the `service.name` resource attribute. Default `folio`.
        public var serviceName = "folio"
        /// `sampleRatio`: the share of root traces recorded, 0…1; a client's sampled
        /// `traceparent` is always honoured. Default 1.0.
        public var sampleRatio = 1.0

        public init() {}

        /// Where spans are posted.
        public var tracesURL: String? {
            guard var base = otlpEndpoint else { return nil }
            if base.hasSuffix("/v1/traces") { return base }
            while base.hasSuffix("/") { base.removeLast() }
            return base + "/v1/traces"
        }
    }
}
