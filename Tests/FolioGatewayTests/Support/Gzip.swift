import CNIOExtrasZlib

/// Compresses test bodies with zlib (the copy NIO's decompressor itself uses), so the
/// expected decoded bytes are the test's own input, not a stored fixture.
enum Gzip {
    /// `gzip` framing, or zlib framing (`Content-Encoding: deflate`) when `zlibWrapper` is set.
    static func compress(_ bytes: [UInt8], zlibWrapper: Bool = false) -> [UInt8] {
        // zlib keeps the stream's address in its state: it must not move between calls.
        let stream = UnsafeMutablePointer<cnioextras_z_stream>.allocate(capacity: 1)
        stream.initialize(to: cnioextras_z_stream())
        defer {
            _ = cnioextras_z_deflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        let windowBits: Int32 = zlibWrapper ? 15 : 16 + 15
        let rc = CNIOExtrasZlib_deflateInit2(
            stream, 1, CNIOEXTRAS_Z_DEFLATED, windowBits, 8, CNIOEXTRAS_Z_DEFAULT_STRATEGY)
        precondition(rc == CNIOEXTRAS_Z_OK, "deflateInit2: \(rc)")

        var input = bytes
        var output = [UInt8](repeating: 0, count: Int(cnioextras_z_deflateBound(stream, UInt(bytes.count))) + 64)
        let produced = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.pointee.next_in = inBuffer.baseAddress
                stream.pointee.avail_in = UInt32(inBuffer.count)
                stream.pointee.next_out = outBuffer.baseAddress
                stream.pointee.avail_out = UInt32(outBuffer.count)
                let rc = cnioextras_z_deflate(stream, CNIOEXTRAS_Z_FINISH)
                precondition(rc == CNIOEXTRAS_Z_STREAM_END, "deflate: \(rc)")
                return outBuffer.count - Int(stream.pointee.avail_out)
            }
        }
        return Array(output[..<produced])
    }
}
