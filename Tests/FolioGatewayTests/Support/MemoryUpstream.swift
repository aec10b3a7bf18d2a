import FolioEngine
import NIOCore
import NIOHTTP1
import Synchronization

@testable import FolioGateway

/// An `Upstream` that answers from a table in memory, for unit tests of the fill pipeline: no
/// sockets, and every request it saw (URL and headers) kept for the test to read.
final class MemoryUpstream: Upstream {
    struct Answer: Sendable {
        var status = 200
        var headers: HTTPHeaders = [:]
        /// The body as it arrives, chunk by chunk.
        var chunks: [String]
        /// How long the head takes (real time: lets concurrent requests overlap).
        var delay: Duration = .zero
        /// Awaited before the head: holds a fill in flight until the test opens it.
        var gate: Latch? = nil
    }

    private let answers: Mutex<[String: Answer]>
    private let log = Mutex<[(url: String, headers: HTTPHeaders)]>([])

    init(_ answers: [String: Answer]) {
        self.answers = Mutex(answers)
    }

    /// Changes what `url` answers from now on.
    func answer(_ url: String, with answer: Answer) {
        answers.withLock { $0[url] = answer }
    }

    var requests: [(url: String, headers: HTTPHeaders)] { log.withLock { $0 } }

    func get<Sink: UpstreamBodySink>(
        _ url: String, headers: HTTPHeaders, makeSink: (UpstreamHead) throws -> Sink
    ) async throws -> (UpstreamHead, Sink) {
        log.withLock { $0.append((url, headers)) }
        let answer = answers.withLock { $0[url] } ?? Answer(status: 404, chunks: ["no such URL: \(url)"])
        if answer.delay > .zero { try await Task.sleep(for: answer.delay) }
        await answer.gate?.wait()
        let head = UpstreamHead(status: answer.status, headers: answer.headers, url: url)
        var sink = try makeSink(head)
        for chunk in answer.chunks {
            try await sink.receive(ByteBuffer(string: chunk))
        }
        return (head, sink)
    }
}
