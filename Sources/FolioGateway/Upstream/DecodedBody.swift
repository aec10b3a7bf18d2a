import AsyncHTTPClient
import NIOCore

/// An upstream body as decoded bytes, read a piece at a time: chunks as they arrive, or a
/// `gzip`/`deflate` body inflated only as far as its reader asks (`Inflater`), so the sink's
/// verdict on each piece comes before the next is inflated (docs/API.md, "Proxy headers").
struct DecodedBody {
    private var chunks: HTTPClientResponse.Body.AsyncIterator
    private let inflater: Inflater?
    /// Compressed bytes received and not inflated yet.
    private var pending = ByteBuffer()
    private let allocator = ByteBufferAllocator()

    /// Most bytes inflated at once: what a plain body's chunks hold, so a sink sees pieces of
    /// the same size whatever the coding.
    static let pieceBytes = 64 << 10

    init(_ response: HTTPClientResponse) throws {
        chunks = response.body.makeAsyncIterator()
        inflater = Inflater.decodes(response.headers) ? try Inflater() : nil
    }

    /// The next decoded bytes, nil at the end. An inflated piece holds at most `maxBytes`
    /// (≥ 1), so a cap is never overshot by more than that; a plain chunk is as it arrived.
    /// Library errors are translated; a cancelled reader stops inflating at once.
    mutating func next(atMost maxBytes: Int) async throws -> ByteBuffer? {
        guard let inflater else { return try await nextChunk() }
        while true {
            try Task.checkCancellation()
            let limit = min(maxBytes, Self.pieceBytes)
            if let piece = try inflater.inflate(&pending, upTo: limit, allocator: allocator) { return piece }
            guard let chunk = try await nextChunk() else {
                try inflater.finish()
                return nil
            }
            if pending.readableBytes == 0 {
                pending = chunk
            } else {
                pending.writeImmutableBuffer(chunk)
            }
        }
    }

    private mutating func nextChunk() async throws -> ByteBuffer? {
        do {
            return try await chunks.next()
        } catch {
            throw UpstreamError.translating(error, phase: .body)
        }
    }
}
