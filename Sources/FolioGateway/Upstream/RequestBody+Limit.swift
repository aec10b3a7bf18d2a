import FolioEngine
import NIOConcurrencyHelpers
import NIOCore

/// A client's request body that fails with 413 once more than `limit` bytes have passed.
///
/// The overflow is also recorded in `overflowed`, because AsyncHTTPClient reads the body in its
/// own task and may report the failure as its own error.
struct LimitedBody<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == ByteBuffer {
    typealias Element = ByteBuffer

    let base: Base
    let limit: Int
    let overflowed: NIOLockedValueBox<Bool>

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), limit: limit, overflowed: overflowed)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let limit: Int
        let overflowed: NIOLockedValueBox<Bool>
        var passed = 0

        mutating func next() async throws -> ByteBuffer? {
            guard let chunk = try await base.next() else { return nil }
            passed += chunk.readableBytes
            guard passed <= limit else {
                overflowed.withLockedValue { $0 = true }
                throw FolioError.requestBodyTooLarge(limit: limit)
            }
            return chunk
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
