import AsyncHTTPClient
import FolioEngine
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

@testable import FolioGateway

/// A sink that keeps every chunk as received, to check both content and streaming.
struct RecordingSink: UpstreamBodySink {
    var chunks: [[UInt8]] = []
    /// Shared with the test, so a server can wait until a chunk has really arrived.
    let received: NIOLockedValueBox<Int>

    init(received: NIOLockedValueBox<Int> = NIOLockedValueBox(0)) {
        self.received = received
    }

    var bytes: [UInt8] { chunks.flatMap { $0 } }

    mutating func receive(_ chunk: ByteBuffer) throws {
        chunks.append(Array(chunk.readableBytesView))
        received.withLockedValue { $0 += 1 }
    }
}

/// A sink that fails on its first chunk, as a JSON indexer would on a bad body.
struct FailingSink: UpstreamBodySink {
    let error: FolioError
    mutating func receive(_ chunk: ByteBuffer) throws { throw error }
}

/// Runs `body` with a client that is always shut down (AsyncHTTPClient asserts otherwise).
func withUpstreamClient<T>(
    _ settings: UpstreamSettings = UpstreamSettings(responseTimeout: .seconds(30)),
    _ body: (UpstreamClient) async throws -> T
) async throws -> T {
    let client = UpstreamClient(settings: settings)
    do {
        let result = try await body(client)
        try await client.shutdown()
        return result
    } catch {
        try await client.shutdown()
        throw error
    }
}

/// Bytes that are easy to tell apart: position-dependent, not all the same.
func sampleBytes(_ count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 251) }
}

extension UpstreamClient {
    /// `get` with a `RecordingSink`, for tests.
    func getRecording(_ url: String, headers: HTTPHeaders = [:]) async throws -> (UpstreamHead, RecordingSink) {
        try await get(url, headers: headers) { _ in RecordingSink() }
    }
}

/// A request body given as separate chunks; `beforeLast` runs before the last one is handed out.
struct ChunkedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    var chunks: [[UInt8]]
    var beforeLast: (@Sendable () async -> Void)? = nil

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(body: self) }

    struct AsyncIterator: AsyncIteratorProtocol {
        let body: ChunkedBody
        var index = 0

        mutating func next() async throws -> ByteBuffer? {
            guard index < body.chunks.count else { return nil }
            if index == body.chunks.count - 1 { await body.beforeLast?() }
            defer { index += 1 }
            return ByteBuffer(bytes: body.chunks[index])
        }
    }
}
