import CBrotli
import CZlib
import CZstd
import FolioConfiguration

/// One-shot compression of a rendered answer with Debian's C libraries. A list answer is
/// compressed once per snapshot, query and coding and then served from memory (`RenderedPages`),
/// so the levels favour size over speed, within a millisecond for a 500-item page
/// (`scripts/compression-levels.py`; BENCHMARKS.md, "Compression levels").
enum Compressor {
    /// Brotli quality (0–11): 5 gives what 6 and 8 give within 2% in less time; 9 and up take
    /// 25–200× longer for at most 7% less (a 500-item page: 0.7 ms at 5, 19 ms at 9, 141 ms at 11).
    static let brotliQuality: Int32 = 5
    /// zlib level (1–9): 6 is 10–20% smaller than 1; 9 takes twice as long for nothing.
    static let gzipLevel: Int32 = 6
    /// zstd level (1–19): 6 is 15–25% smaller than 3; 9 is the same size, slower.
    static let zstdLevel: Int32 = 6

    static func compress(_ input: [UInt8], as coding: ContentCoding) -> [UInt8] {
        switch coding {
        case .br: brotli(input)
        case .gzip: gzip(input)
        case .zstd: zstd(input)
        }
    }

    static func brotli(_ input: [UInt8]) -> [UInt8] {
        var size = BrotliEncoderMaxCompressedSize(input.count)
        var output = [UInt8](repeating: 0, count: max(size, 64))
        size = output.count
        let ok = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                BrotliEncoderCompress(
                    brotliQuality, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT, source.count, source.baseAddress, &size,
                    target.baseAddress)
            }
        }
        precondition(ok == BROTLI_TRUE, "brotli failed on a buffer of its own bound")
        output.removeSubrange(size...)
        return output
    }

    static func zstd(_ input: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: ZSTD_compressBound(input.count))
        let size = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                ZSTD_compress(target.baseAddress, target.count, source.baseAddress, source.count, zstdLevel)
            }
        }
        precondition(ZSTD_isError(size) == 0, "zstd failed on a buffer of its own bound")
        output.removeSubrange(size...)
        return output
    }

    /// A gzip member (RFC 1952), as browsers and `curl --compressed` expect for `gzip`.
    static func gzip(_ input: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        // windowBits 15 + 16: a gzip header and trailer instead of zlib's.
        let initialized = deflateInit2_(
            &stream, gzipLevel, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
            Int32(MemoryLayout<z_stream>.size))
        precondition(initialized == Z_OK, "deflateInit2 failed")
        defer { deflateEnd(&stream) }
        // deflateBound leaves no room for the gzip header and trailer.
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(input.count))) + 32)
        var mutableInput = input
        let result = mutableInput.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        precondition(result == Z_STREAM_END, "deflate did not finish within its bound")
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }
}
