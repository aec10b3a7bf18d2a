import FolioEngine
import NIOConcurrencyHelpers
import NIOCore

/// A client's request body that fails with 413 once more than `limit` bytes have passed, and
/// with 400 when the client's body itself cannot be read (e.g. a malformed chunk size, which
/// the HTTP parser reports only after the head was dispatched).
///
/// The failure is also recorded in `failure`, because AsyncHTTPClient reads the body in its
/// own task and may report it as its own error.
struct LimitedBody<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == ByteBuffer {
    typealias Element = ByteBuffer

    let base: Base
    let limit: Int
    let failure: NIOLockedValueBox<FolioError?>

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), limit: limit, failure: failure)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let limit: Int
        let failure: NIOLockedValueBox<FolioError?>
        var passed = 0

        mutating func next() async throws -> ByteBuffer? {
            let next: ByteBuffer?
            do {
                next = try await base.next()
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw fail(.unreadableRequestBody)
            }
            guard let chunk = next else { return nil }
            passed += chunk.readableBytes
            guard passed <= limit else { throw fail(.requestBodyTooLarge(limit: limit)) }
            return chunk
        }

        private func fail(_ error: FolioError) -> FolioError {
            failure.withLockedValue { $0 = $0 ?? error }
            return error
        }
    }
}

/// The rest of a body whose first chunk has already been read (to learn whether there is a
/// body at all). Iterated once, by AsyncHTTPClient's upload.
struct PeekedBody<Iterator: AsyncIteratorProtocol>: AsyncSequence, Sendable where Iterator.Element == ByteBuffer {
    typealias Element = ByteBuffer

    let first: ByteBuffer
    let rest: Handover<Iterator>

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(first: first, rest: rest)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var first: ByteBuffer?
        let rest: Handover<Iterator>

        mutating func next() async throws -> ByteBuffer? {
            if let chunk = first {
                first = nil
                return chunk
            }
            return try await rest.value.next()
        }
    }
}
