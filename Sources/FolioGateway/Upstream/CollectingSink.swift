import NIOCore

/// Keeps a whole body up to a cap, for answers passed through as they are (non-2xx, unsafe
/// methods, fallback routes).
public struct CollectingSink: UpstreamBodySink {
    public let limit: Int
    public var buffer: ByteBuffer

    /// - Parameter limit: most bytes kept; one more fails with `upstream-body-too-large`.
    public init(limit: Int) {
        self.limit = limit
        self.buffer = ByteBuffer()
    }

    public mutating func receive(_ chunk: ByteBuffer) throws {
        guard chunk.readableBytes <= limit - buffer.readableBytes else {
            throw UpstreamError.bodyTooLarge("collected body exceeds \(limit) bytes")
        }
        buffer.writeImmutableBuffer(chunk)
    }
}
