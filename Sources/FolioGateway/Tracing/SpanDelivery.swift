import AsyncHTTPClient
import FolioEngine
import Logging
import NIOCore
import Prometheus
import Synchronization

/// Sends the span batches swift-otel encoded (OTLP protobuf) to the collector, one at a time,
/// retrying what `ExportRetry` says, and says what became of each (docs/OPERATIONS.md,
/// "Traces"): counted in `/metrics`, a dropped batch logged with the collector's status and the
/// first bytes of its answer.
///
/// Requests never wait on it: batches arrive through a bounded queue (`enqueue` returns at once;
/// a batch that finds it full is dropped and counted), and the sends run in `run`.
final class SpanDelivery: Sendable {
    struct Batch: Sendable {
        var body: ByteBuffer
        var contentType: String
    }

    /// Batches waiting: at swift-otel's default of 512 spans a batch, thousands of spans.
    static let capacity = 32
    /// How much of a refusing collector's answer the log line quotes.
    static let quotedBytes = 200

    let url: String
    let retry: ExportRetry
    private let client: HTTPClient
    private let logger: Logger
    private let metrics: TraceExportMetrics
    private let queue: AsyncStream<Batch>
    private let continuation: AsyncStream<Batch>.Continuation
    /// Set by `finish`: what is still queued gets one send each, so a drain is not held up by
    /// a collector that is down.
    private let finishing = Atomic<Bool>(false)

    init(url: String, retry: ExportRetry, logger: Logger, metrics: TraceExportMetrics) {
        self.url = url
        self.retry = retry
        self.logger = logger
        self.metrics = metrics
        (queue, continuation) = AsyncStream.makeStream(of: Batch.self, bufferingPolicy: .bufferingOldest(Self.capacity))
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(2), read: .seconds(10), write: .seconds(10)),
            connectionPool: .init())
        // A refused connection is a failed send at once; `ExportRetry` decides about the next.
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Queues `batch` for sending; never waits.
    func enqueue(_ batch: Batch) {
        if case .dropped = continuation.yield(batch) {
            metrics.dropped.increment()
            logger.warning("trace export dropped", metadata: ["reason": "queue full", "url": "\(url)"])
        }
    }

    /// No more batches: `run` sends what is queued, once each, then returns.
    func finish() {
        finishing.store(true, ordering: .relaxed)
        continuation.finish()
    }

    /// Sends batches until `finish` (or cancellation), then shuts the client down.
    func run() async {
        for await batch in queue {
            await deliver(batch)
        }
        try? await client.shutdown()
    }

    /// Sends `batch` until it is taken, or `retry` gives up on it.
    func deliver(_ batch: Batch) async {
        var attempt = 1
        while true {
            let failure: ExportRetry.Failure
            var detail: Logger.Metadata
            do {
                let answer = try await send(batch)
                if (200..<300).contains(answer.status) {
                    metrics.sent.increment()
                    return
                }
                failure = .answered(status: answer.status, retryAfter: answer.retryAfter)
                detail = ["status": .stringConvertible(answer.status), "answer": "\(answer.quoted)"]
            } catch {
                failure = .unanswered
                detail = ["error": "\(DetailText.clip(String(describing: error), limit: Self.quotedBytes))"]
            }
            detail["url"] = "\(url)"
            detail["attempts"] = .stringConvertible(attempt)
            guard !finishing.load(ordering: .relaxed), !Task.isCancelled,
                let delay = retry.delay(after: attempt, failure)
            else {
                metrics.dropped.increment()
                logger.warning("trace export dropped", metadata: detail)
                return
            }
            metrics.retries.increment()
            logger.debug("trace export failed, retrying", metadata: detail)
            try? await Task.sleep(for: delay)
            attempt += 1
        }
    }

    private struct Answer {
        var status: Int
        var retryAfter: Int?
        /// The start of the body, as text, control characters replaced.
        var quoted: String
    }

    private func send(_ batch: Batch) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: batch.contentType)
        request.headers.add(name: "User-Agent", value: "folio")
        request.body = .bytes(batch.body)
        let response = try await client.execute(request, timeout: .seconds(10))
        var answer = Answer(
            status: Int(response.status.code),
            retryAfter: response.headers.first(name: "Retry-After").flatMap { Int($0) },
            quoted: "")
        guard !(200..<300).contains(answer.status) else {
            _ = try? await response.body.collect(upTo: 64 << 10)
            return answer
        }
        var start = ByteBuffer()
        for try await chunk in response.body {
            var chunk = chunk
            start.writeBuffer(&chunk)
            if start.readableBytes >= Self.quotedBytes { break }
        }
        let bytes = start.readableBytesView.prefix(Self.quotedBytes).map { $0 < 0x20 || $0 == 0x7F ? UInt8(0x20) : $0 }
        answer.quoted = DetailText.clip(String(decoding: bytes, as: UTF8.self), limit: Self.quotedBytes)
        return answer
    }
}
