import CZlib

/// Compression bombs for tests (issue 39), made in milliseconds however much they decode to.
///
/// Compressing a gigabyte takes zlib seconds; instead one MiB of the fill is deflated after a
/// full flush, which resets the compressor, so every further MiB compresses to the same bytes
/// and the stream is that piece repeated. The checksums in the trailer are combined per MiB:
/// the body is valid to its last byte, as a real bomb would be.
enum CompressionBomb {
    static let block = 1 << 20

    /// `body` cut into the 64 KiB writes an upstream would make of it.
    static func parts(_ body: [UInt8]) -> [[UInt8]] {
        stride(from: 0, to: body.count, by: 64 << 10).map { Array(body[$0..<min(body.count, $0 + (64 << 10))]) }
    }

    /// A `gzip` body (or a zlib-wrapped one, `Content-Encoding: deflate`) that decodes to
    /// `prefix` and then `count` bytes of `fill`; `count` is a multiple of a MiB, at least 3 MiB.
    static func make(prefix: [UInt8] = [], fill: UInt8 = 0, count: Int, zlibWrapper: Bool = false) -> [UInt8] {
        precondition(count % block == 0 && count >= 3 * block, "whole MiBs, at least 3")
        let blocks = count / block
        let fillBlock = [UInt8](repeating: fill, count: block)
        // zlib keeps the stream's address in its state: it must not move between calls.
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer {
            deflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        // Raw deflate (-15): the wrapper is written here, with the combined checksums.
        let rc = deflateInit2_(
            stream, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        precondition(rc == Z_OK, "deflateInit2: \(rc)")

        /// Deflates all of `input` with `flush`, returning what comes out.
        func deflated(_ input: [UInt8], _ flush: Int32) -> [UInt8] {
            var input = input
            var output: [UInt8] = []
            var scratch = [UInt8](repeating: 0, count: 1 << 16)
            input.withUnsafeMutableBufferPointer { source in
                stream.pointee.next_in = source.baseAddress
                stream.pointee.avail_in = UInt32(source.count)
                repeat {
                    let produced = scratch.withUnsafeMutableBufferPointer { target in
                        stream.pointee.next_out = target.baseAddress
                        stream.pointee.avail_out = UInt32(target.count)
                        let rc = deflate(stream, flush)
                        precondition(rc == Z_OK || rc == Z_STREAM_END || rc == Z_BUF_ERROR, "deflate: \(rc)")
                        return target.count - Int(stream.pointee.avail_out)
                    }
                    output += scratch[..<produced]
                } while stream.pointee.avail_in > 0 || stream.pointee.avail_out == 0
            }
            return output
        }

        let head = deflated(prefix, Z_NO_FLUSH) + deflated(fillBlock, Z_FULL_FLUSH)
        let repeated = deflated(fillBlock, Z_FULL_FLUSH)
        precondition(deflated(fillBlock, Z_FULL_FLUSH) == repeated, "a full flush makes each MiB alike")
        let tail = deflated([], Z_FINISH)
        var body: [UInt8] = []
        body.reserveCapacity(18 + head.count + repeated.count * (blocks - 1) + tail.count)
        body += zlibWrapper ? [0x78, 0xDA] : [0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0x02, 0xFF]
        body += head
        for _ in 1..<blocks { body += repeated }
        body += tail

        // The checksum of `blocks` MiBs of fill, by doubling: log2(blocks) combinations.
        let combine = zlibWrapper ? adler32_combine : crc32_combine
        let checksum = zlibWrapper ? adler32 : crc32
        func sum(_ bytes: [UInt8]) -> UInt {
            bytes.withUnsafeBufferPointer { checksum(zlibWrapper ? 1 : 0, $0.baseAddress, UInt32($0.count)) }
        }
        var total = sum(prefix)
        var power = (sum: sum(fillBlock), length: block)
        var left = blocks
        while left > 0 {
            if left & 1 == 1 { total = combine(total, power.sum, power.length) }
            power = (combine(power.sum, power.sum, power.length), power.length * 2)
            left >>= 1
        }
        if zlibWrapper {
            body += (0..<4).map { UInt8(truncatingIfNeeded: total >> (24 - 8 * $0)) }
        } else {
            let size = UInt32(truncatingIfNeeded: prefix.count + count)
            body += (0..<4).map { UInt8(truncatingIfNeeded: total >> (8 * $0)) }
            body += (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) }
        }
        return body
    }
}
