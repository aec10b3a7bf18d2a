import FolioTestSupport
import Foundation
import NIOCore
import Prometheus
import Synchronization
import Testing

@testable import FolioGateway

/// What becomes of a span batch the collector does not take (docs/OPERATIONS.md, "Traces"):
/// retried with backoff when OTLP says it may be, otherwise (or after the last attempt) dropped,
/// counted and logged with the collector's status and answer; requests never wait on it.
@Suite("Trace export: retries, drops, counts")
struct TraceExportTests {
    @Test func aRefusedBatchIsDroppedCountedAndLoggedWithTheCollectorsAnswer() async throws {
        try await withTestUpstream({ request in
            request.path == "/v1/traces"
                ? .text("proto: invalid length for ID", status: 400) : .json(objectsBody(5).body)
        }) { both in
            let log = CapturedLog()
            let yaml = gatewayYAML(
                upstream: both.baseURL + "/objects", admin: true, top: "tracing: { otlpEndpoint: \(both.baseURL) }")
            let (metrics, _) = try await withFolio(yaml, logger: log.logger()) { folio in
                let answer = try await folio.get("\(folio.client)/objects")
                #expect(answer.status == 200)
                return folio.server.metrics
            }
            let exports = both.requests.filter { $0.path == "/v1/traces" }
            #expect(!exports.isEmpty)
            let samples = try PrometheusSamples(String(decoding: metrics.registry.emitToBuffer(), as: UTF8.self))
            // A 400 would fail again: no retry.
            #expect(samples.value("folio_trace_export_batches_total", ["outcome": "dropped"]) == Double(exports.count))
            #expect(samples.value("folio_trace_export_batches_total", ["outcome": "sent"]) == 0)
            #expect(samples.value("folio_trace_export_retries_total") == 0)
            let dropped = try #require(try log.messages("trace export dropped").first)
            #expect(dropped["status"] as? Int == 400)
            #expect(dropped["answer"] as? String == "proto: invalid length for ID")
            #expect(dropped["url"] as? String == "\(both.baseURL)/v1/traces")
        }
    }

    static func delivery(to url: String, attempts: Int, log: CapturedLog) -> (SpanDelivery, PrometheusCollectorRegistry)
    {
        let registry = PrometheusCollectorRegistry()
        let retry = ExportRetry(attempts: attempts, baseDelay: .milliseconds(1), maxDelay: .milliseconds(4))
        let delivery = SpanDelivery(
            url: url, retry: retry, logger: log.logger(level: .debug), metrics: TraceExportMetrics(registry: registry))
        return (delivery, registry)
    }

    static let batch = SpanDelivery.Batch(body: ByteBuffer(bytes: [0x0A, 0x00]), contentType: "application/x-protobuf")

    @Test func aRetryableAnswerIsSentAgainUntilTaken() async throws {
        let answers = Counted()
        try await withTestUpstream({ _ in
            answers.next() <= 2 ? .text("busy", status: 503) : TestUpstream.Reply(status: 200)
        }) { collector in
            let log = CapturedLog()
            let (delivery, registry) = Self.delivery(to: collector.baseURL + "/v1/traces", attempts: 5, log: log)
            await delivery.deliver(Self.batch)
            delivery.finish()
            await delivery.run()
            #expect(collector.requestCount == 3)
            #expect(collector.requests.allSatisfy { $0.body == [0x0A, 0x00] })
            let samples = try PrometheusSamples(String(decoding: registry.emitToBuffer(), as: UTF8.self))
            #expect(samples.value("folio_trace_export_batches_total", ["outcome": "sent"]) == 1)
            #expect(samples.value("folio_trace_export_retries_total") == 2)
            #expect(samples.value("folio_trace_export_batches_total", ["outcome": "dropped"]) == 0)
            #expect(try log.messages("trace export failed, retrying").count == 2)
        }
    }

    @Test func aCollectorThatStaysDownCostsTheBatchAfterTheLastAttempt() async throws {
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let log = CapturedLog()
        let (delivery, registry) = Self.delivery(to: refusing.url + "/v1/traces", attempts: 3, log: log)
        await delivery.deliver(Self.batch)
        delivery.finish()
        await delivery.run()
        let samples = try PrometheusSamples(String(decoding: registry.emitToBuffer(), as: UTF8.self))
        #expect(samples.value("folio_trace_export_batches_total", ["outcome": "dropped"]) == 1)
        #expect(samples.value("folio_trace_export_retries_total") == 2)
        let dropped = try #require(try log.messages("trace export dropped").first)
        #expect(dropped["attempts"] as? Int == 3)
        #expect((dropped["error"] as? String)?.isEmpty == false)
    }

    @Test func backoffDoublesUpToItsCapAndHonoursRetryAfter() {
        let retry = ExportRetry(attempts: 6, baseDelay: .milliseconds(500), maxDelay: .seconds(4))
        let unavailable = ExportRetry.Failure.answered(status: 503, retryAfter: nil)
        #expect(
            (1...5).map { retry.delay(after: $0, unavailable, jitter: 0) } == [
                .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(4),
            ])
        #expect(retry.delay(after: 6, unavailable, jitter: 0) == nil)
        #expect(retry.delay(after: 1, .unanswered, jitter: 0.5) == .milliseconds(250))
        #expect(retry.delay(after: 1, .answered(status: 429, retryAfter: 3), jitter: 0) == .seconds(3))
        #expect(retry.delay(after: 1, .answered(status: 429, retryAfter: 60), jitter: 0) == .seconds(4))
        for status in [400, 401, 404, 413, 500] {
            #expect(retry.delay(after: 1, .answered(status: status, retryAfter: nil)) == nil)
        }
    }
}

/// Numbers calls from 1, across threads.
final class Counted: Sendable {
    private let count = Mutex(0)

    func next() -> Int {
        count.withLock {
            $0 += 1
            return $0
        }
    }
}

extension TraceExportTests {
    /// A drain sends what is queued once each: a collector that is down does not hold it up.
    @Test func whatIsQueuedAtTheDrainGetsOneSendEach() async throws {
        try await withTestUpstream({ _ in .text("busy", status: 503) }) { collector in
            let log = CapturedLog()
            let (delivery, registry) = Self.delivery(to: collector.baseURL + "/v1/traces", attempts: 5, log: log)
            delivery.enqueue(Self.batch)
            delivery.enqueue(Self.batch)
            delivery.finish()
            await delivery.run()
            #expect(collector.requestCount == 2)
            let samples = try PrometheusSamples(String(decoding: registry.emitToBuffer(), as: UTF8.self))
            #expect(samples.value("folio_trace_export_batches_total", ["outcome": "dropped"]) == 2)
            #expect(samples.value("folio_trace_export_retries_total") == 0)
        }
    }
}
