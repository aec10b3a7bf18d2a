import CZlib
import NIOCore
import NIOHTTP1

/// Decodes a `gzip` or `deflate` upstream body a bounded piece at a time, as its reader asks
/// for bytes (docs/API.md, "Proxy headers").
///
/// AsyncHTTPClient's own decompression (swift-nio-extras) inflated each socket read whole on
/// the event loop, before anything looked at it: a read of a compression bomb became tens of
/// megabytes of zeros however early the indexer would have refused them (issue 39). Here
/// nothing is inflated that the sink has not asked for, so a bad body fails at its first bad
/// byte whatever its coding and a bomb costs the bytes read, not the bytes it inflates to.
///
/// Used by one task at a time (the download's).
final class Inflater {
    /// zlib keeps the stream's address in its state: it must not move between calls.
    private let stream: UnsafeMutablePointer<z_stream>
    /// The compressed stream has ended (its trailer checked).
    private(set) var finished = false
    /// Some compressed bytes have been given: an empty body is no truncated one.
    private var started = false

    /// The coding to decode for an answer with these headers: the first `Content-Encoding`
    /// value when it is `gzip` or `deflate`, nil for anything else (passed on as received).
    /// The same rule as swift-nio-extras', which `ProxyHeaders.removeDecodedCoding` mirrors.
    static func decodes(_ headers: HTTPHeaders) -> Bool {
        guard let first = headers[canonicalForm: "content-encoding"].first?.lowercased() else { return false }
        return first == "gzip" || first == "deflate"
    }

    init() throws {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // 15 + 32: a gzip or zlib header, detected, as swift-nio-extras reads `deflate` too.
        let rc = inflateInit2_(stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard rc == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw UpstreamError.failed("zlib inflateInit2 failed: \(rc)")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Inflates from `input` into one buffer of at most `maxBytes` (≥ 1); nil when `input` is
    /// used up without producing anything (more compressed bytes are needed, or the stream has
    /// ended). Bytes after the end of the compressed stream are an error, as is a corrupt one.
    func inflate(_ input: inout ByteBuffer, upTo maxBytes: Int, allocator: ByteBufferAllocator) throws -> ByteBuffer? {
        guard input.readableBytes > 0 else { return nil }
        guard !finished else { throw UpstreamError.failed("data after the end of the compressed body") }
        started = true
        var output = allocator.buffer(capacity: maxBytes)
        var rc = Z_OK
        try output.writeWithUnsafeMutableBytes(minimumWritableBytes: maxBytes) { target in
            let room = min(target.count, maxBytes)
            var written = 0
            try input.readWithUnsafeReadableBytes { source in
                let zstream = stream
                zstream.pointee.next_in = UnsafeMutablePointer(
                    mutating: source.baseAddress!.assumingMemoryBound(to: Bytef.self))
                zstream.pointee.avail_in = UInt32(source.count)
                zstream.pointee.next_out = target.baseAddress!.assumingMemoryBound(to: Bytef.self)
                zstream.pointee.avail_out = UInt32(room)
                defer {
                    zstream.pointee.next_in = nil
                    zstream.pointee.avail_in = 0
                    zstream.pointee.next_out = nil
                    zstream.pointee.avail_out = 0
                }
                rc = CZlib.inflate(zstream, Z_NO_FLUSH)
                // Z_BUF_ERROR: no progress possible with this input; more must come.
                guard rc == Z_OK || rc == Z_STREAM_END || rc == Z_BUF_ERROR else {
                    throw UpstreamError.failed("the compressed body does not inflate (zlib \(rc))")
                }
                written = room - Int(zstream.pointee.avail_out)
                return source.count - Int(zstream.pointee.avail_in)
            }
            return written
        }
        if rc == Z_STREAM_END {
            finished = true
            if input.readableBytes > 0 { throw UpstreamError.failed("data after the end of the compressed body") }
        }
        return output.readableBytes > 0 ? output : nil
    }

    /// Checks that the compressed stream ended with the body (an empty body is fine).
    func finish() throws {
        guard started, !finished else { return }
        throw UpstreamError.failed("the compressed body ends early")
    }
}
