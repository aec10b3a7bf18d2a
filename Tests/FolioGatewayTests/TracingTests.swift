import FolioConfiguration
import Foundation
import Testing

@testable import FolioGateway

/// Tracing (docs/OPERATIONS.md, "Traces"): W3C trace context from clients to upstreams, and OTLP/HTTP export to
/// a receiver the test starts, which checks the batches as the OpenTelemetry Collector does (`OTLPCollectorStub`).
@Suite("Tracing: traceparent propagation and OTLP/HTTP export")
struct TracingTests {
    static let clientTrace = "0af7651916cd43dd8448eb211c80319c"
    static let clientSpan = "b7ad6b7169203331"
    static let sampled = "00-\(clientTrace)-\(clientSpan)-01"

    /// `00-TRACE-SPAN-FLAGS` split, or nil when malformed.
    static func traceparent(_ value: String?) -> (trace: String, span: String, flags: String)? {
        guard let parts = value?.split(separator: "-").map(String.init), parts.count == 4, parts[0] == "00",
            parts[1].count == 32, parts[2].count == 16, parts[3].count == 2
        else { return nil }
        return (parts[1], parts[2], parts[3])
    }

    @Test func theClientsTraceContinuesUpstreamWithoutAnExporter() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(5).body) }) { upstream in
            _ = try await withFolio(gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true)) { folio in
                #expect(
                    try await folio.get("\(folio.client)/objects", headers: [("traceparent", Self.sampled)]).status
                        == 200)
                let sent = try #require(Self.traceparent(upstream.requests.last?.header("traceparent")))
                #expect(sent.trace == Self.clientTrace)
                #expect(sent.span != Self.clientSpan)
                #expect(sent.flags == "01")

                // No client trace: a new one, not sampled (nothing would read it), still sent.
                #expect(try await folio.get("\(folio.client)/objects?k=2").status == 200)
                await folio.server.gateway.cache.store.supersede(route: "objects", retention: .zero)
                #expect(try await folio.get("\(folio.client)/objects").status == 200)
                let root = try #require(Self.traceparent(upstream.requests.last?.header("traceparent")))
                #expect(root.trace != Self.clientTrace)
                #expect(root.flags == "00")
            }
        }
    }

    @Test func aForwardedRequestCarriesTheTraceToo() async throws {
        try await withTestUpstream({ _ in .json("{}", status: 201) }) { upstream in
            _ = try await withFolio(gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true)) { folio in
                #expect(
                    try await folio.post("\(folio.client)/objects", headers: [("traceparent", Self.sampled)]).status
                        == 201)
                let sent = try #require(Self.traceparent(upstream.requests.last?.header("traceparent")))
                #expect(upstream.requests.last?.method == "POST")
                #expect(sent.trace == Self.clientTrace)
            }
        }
    }

    @Test func spansAreExportedWithParentsAndAttributes() async throws {
        try await withTestUpstream({ request in
            request.path == "/v1/traces" ? OTLPCollectorStub.reply(request) : .json(objectsBody(5).body)
        }) { both in
            let yaml = gatewayYAML(
                upstream: both.baseURL + "/objects", admin: true,
                top: "tracing:\n  otlpEndpoint: \(both.baseURL)\n  serviceName: folio-test")
            let (metrics, _) = try await withFolio(yaml) { folio in
                let answer = try await folio.get("\(folio.client)/objects", headers: [("traceparent", Self.sampled)])
                #expect(answer.status == 200)
                return folio.server.metrics
            }
            // The drain at the end of withFolio flushed the exporter, and every batch was taken.
            let exports = both.requests.filter { $0.path == "/v1/traces" }
            #expect(!exports.isEmpty)
            #expect(exports.allSatisfy { OTLPCollectorStub.reply($0).status == 200 })
            let samples = try PrometheusSamples(String(decoding: metrics.registry.emitToBuffer(), as: UTF8.self))
            #expect(samples.value("folio_trace_export_batches_total", ["outcome": "sent"]) == Double(exports.count))
            #expect(samples.value("folio_trace_export_batches_total", ["outcome": "dropped"]) == 0)
            let spans = try ExportedSpans(exports)
            #expect(spans.serviceNames == ["folio-test"])
            let request = try #require(spans.all.first { $0.name == "GET /objects" })
            #expect(request.traceID == Self.clientTrace)
            #expect(request.parentSpanID == Self.clientSpan)
            #expect(request.kind == "server")
            #expect(request.attributes["folio.route"] == "objects")
            #expect(request.attributes["http.route"] == "/objects")
            #expect(request.attributes["http.response.status_code"] == "200")
            #expect(request.attributes["folio.cache_status"]?.contains("fwd=miss") == true)
            let fetch = try #require(spans.all.first { $0.kind == "client" })
            #expect(fetch.parentSpanID == request.spanID)
            #expect(fetch.traceID == Self.clientTrace)
            #expect(fetch.attributes["server.port"] == "\(both.port)")
            #expect(fetch.attributes["http.response.status_code"] == "200")
            let sent = try #require(
                Self.traceparent(both.requests.first { $0.path == "/objects" }?.header("traceparent")))
            #expect(sent.span == fetch.spanID)
        }
    }

    @Test func aCrawlIsOneSpanWithAChildPerPage() async throws {
        let paged = PagedUpstream(count: 45, cap: 20, style: .linkHeader)
        try await withTestUpstream({ request in
            request.path == "/v1/traces" ? OTLPCollectorStub.reply(request) : paged.reply(request)
        }) { both in
            let yaml = gatewayYAML(
                upstream: both.baseURL + "/objects", admin: true,
                top: "tracing: { otlpEndpoint: \(both.baseURL), sampleRatio: 1.0 }"
            )
            .replacingOccurrences(
                of: "upstream: \(both.baseURL)/objects",
                with: "upstream: \(both.baseURL)/items\n    \(paged.routeKeys())")
            _ = try await withFolio(yaml) { folio in
                let answer = try await folio.get("\(folio.client)/objects")
                #expect(answer.status == 200)
            }
            let spans = try ExportedSpans(both.requests.filter { $0.path == "/v1/traces" })
            let request = try #require(spans.all.first { $0.name == "GET /objects" })
            #expect(request.parentSpanID == nil)
            let crawl = try #require(spans.all.first { $0.name == "crawl objects" })
            #expect(crawl.parentSpanID == request.spanID)
            #expect(crawl.attributes["folio.items"] == "45")
            let pages = spans.all.filter { $0.kind == "client" }
            #expect(pages.count == 3)
            #expect(pages.allSatisfy { $0.parentSpanID == crawl.spanID && $0.traceID == request.traceID })
        }
    }

    @Test func aRatioOfZeroRecordsNoRootTraces() async throws {
        try await withTestUpstream({ request in
            request.path == "/v1/traces" ? OTLPCollectorStub.reply(request) : .json(objectsBody(5).body)
        }) { both in
            let yaml = gatewayYAML(
                upstream: both.baseURL + "/objects", admin: true,
                top: "tracing: { otlpEndpoint: \(both.baseURL), sampleRatio: 0 }")
            _ = try await withFolio(yaml) { folio in
                let root = try await folio.get("\(folio.client)/objects")
                let continued = try await folio.get("\(folio.client)/objects", headers: [("traceparent", Self.sampled)])
                #expect(root.status == 200 && continued.status == 200)
            }
            let spans = try ExportedSpans(both.requests.filter { $0.path == "/v1/traces" })
            // Only the client's sampled trace was recorded.
            #expect(!spans.all.isEmpty)
            #expect(spans.all.allSatisfy { $0.traceID == Self.clientTrace })
        }
    }

    @Test(arguments: [
        ("tracing: { sampleRatio: 1.5 }", "tracing.sampleRatio"),
        ("tracing: { sampleRatio: abc }", "tracing.sampleRatio"),
        ("tracing: { otlpEndpoint: ftp://x }", "tracing.otlpEndpoint"),
        ("tracing: { serviceName: '' }", "tracing.serviceName"),
        ("tracing: { exporter: otlp }", "tracing.exporter"),
    ])
    func badTracingKeysAreConfigErrors(yaml: String, path: String) {
        let problems = ConfigFixture.problems(yaml + "\n" + ConfigFixture.minimal)
        #expect(problems.map(\.path) == [path])
    }

    @Test func theTracesURLGetsItsPath() {
        var tracing = Configuration.Tracing()
        #expect(tracing.tracesURL == nil)
        tracing.otlpEndpoint = "http://collector:4318"
        #expect(tracing.tracesURL == "http://collector:4318/v1/traces")
        tracing.otlpEndpoint = "http://collector:4318/"
        #expect(tracing.tracesURL == "http://collector:4318/v1/traces")
        tracing.otlpEndpoint = "http://collector:4318/custom/v1/traces"
        #expect(tracing.tracesURL == "http://collector:4318/custom/v1/traces")
    }
}
