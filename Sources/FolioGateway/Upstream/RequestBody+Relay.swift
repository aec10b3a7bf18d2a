import NIOCore

/// A client's request body, read by a task the forwarding call owns and handed to
/// AsyncHTTPClient one chunk per demand.
///
/// AsyncHTTPClient uploads a streamed body from a task of its own, which it does not stop when
/// the exchange ends early (the upstream timeout, an upstream that answers before reading the
/// whole body). Left waiting for the client's next chunk, that task would still be inside the
/// body's `next()` when Hummingbird, the handler having returned, drains the same connection
/// stream: two concurrent `next()` calls there are a fatal error in NIO, so a client trickling a
/// POST body past `upstreamTimeout` could crash the process. Here only `pump()` reads the client's
/// body; the forwarding call runs it as a child task and cancels and awaits it before answering.
struct BodyRelay<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == ByteBuffer {
    typealias Element = ByteBuffer

    private let base: Base
    private let demand: AsyncStream<Void>
    private let wanted: AsyncStream<Void>.Continuation
    private let chunks: AsyncThrowingStream<ByteBuffer, any Error>
    private let delivered: AsyncThrowingStream<ByteBuffer, any Error>.Continuation

    init(_ base: Base) {
        self.base = base
        (demand, wanted) = AsyncStream.makeStream(of: Void.self)
        (chunks, delivered) = AsyncThrowingStream.makeStream(of: ByteBuffer.self)
    }

    /// Reads one chunk of the client's body per `next()` of the consumer, until the body ends,
    /// fails, or this task is cancelled (the consumer then sees a `CancellationError`).
    func pump() async {
        var iterator = base.makeAsyncIterator()
        do {
            for await _ in demand {
                guard let chunk = try await iterator.next() else {
                    delivered.finish()
                    return
                }
                delivered.yield(chunk)
            }
            delivered.finish(throwing: CancellationError())
        } catch {
            delivered.finish(throwing: error)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: chunks.makeAsyncIterator(), wanted: wanted)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var chunks: AsyncThrowingStream<ByteBuffer, any Error>.AsyncIterator
        let wanted: AsyncStream<Void>.Continuation

        mutating func next() async throws -> ByteBuffer? {
            wanted.yield()
            return try await chunks.next()
        }
    }
}
