#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif

/// Classification of 16 bytes at a time for the scanner's hot loops (string contents, digit
/// runs): one comparison per class and a bit mask, so a token's end is a trailing-zero count
/// instead of a byte loop whose exit the branch predictor misses on every short token.
///
/// Swift has no public movemask: on x86-64 the SSE2 intrinsic (`pmovmskb`) comes from the
/// toolchain's clang module `_Builtin_intrinsics.intel`; elsewhere a portable form (weights and
/// a sum) gives the same bits. `Bytes16Tests` checks every byte value against a scalar reference.
/// Spell every splat `SIMD16<UInt8>(repeating:)`: with the scalar type left to inference, the
/// release build compared lane by lane in a loop (7× slower indexing), not with `pcmpeqb`.
struct Bytes16 {
    let v: SIMD16<UInt8>

    @inline(__always)
    init(_ pointer: UnsafePointer<UInt8>) {
        v = UnsafeRawPointer(pointer).loadUnaligned(as: SIMD16<UInt8>.self)
    }

    /// Bit k set when lane k of `mask` is true.
    @inline(__always)
    static func bits(_ mask: SIMDMask<SIMD16<Int8>>) -> UInt32 {
        #if arch(x86_64)
            UInt32(truncatingIfNeeded: _mm_movemask_epi8(unsafeBitCast(mask, to: __m128i.self)))
        #else
            let lanes = unsafeBitCast(mask, to: SIMD16<UInt8>.self)
            let weighted = lanes & SIMD16<UInt8>(1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128)
            return UInt32(weighted.lowHalf.wrappedSum()) | UInt32(weighted.highHalf.wrappedSum()) << 8
        #endif
    }

    /// Bytes that end a run of plain string text: `"`, `\`, control characters, non-ASCII.
    @inline(__always)
    var stringStops: UInt32 {
        // Minus 0x20, the printable ASCII bytes are 0...0x5F; controls wrap to 0xE0 and above.
        let special = (v &- SIMD16<UInt8>(repeating: 0x20)) .>= SIMD16<UInt8>(repeating: 0x60)
        let quote = v .== SIMD16<UInt8>(repeating: UInt8(ascii: "\""))
        let backslash = v .== SIMD16<UInt8>(repeating: UInt8(ascii: "\\"))
        return Self.bits(special .| quote .| backslash)
    }

    /// Bytes that are `"`.
    @inline(__always)
    var quotes: UInt32 { Self.bits(v .== SIMD16<UInt8>(repeating: UInt8(ascii: "\""))) }

    /// Bytes that are ASCII digits.
    @inline(__always)
    var digits: UInt32 {
        Self.bits((v &- SIMD16<UInt8>(repeating: UInt8(ascii: "0"))) .< SIMD16<UInt8>(repeating: 10))
    }

    /// Bytes that are JSON whitespace (space, tab, line feed, carriage return).
    @inline(__always)
    var whitespace: UInt32 {
        let space = v .== SIMD16<UInt8>(repeating: 0x20)
        let tab = v .== SIMD16<UInt8>(repeating: 0x09)
        let lineFeed = v .== SIMD16<UInt8>(repeating: 0x0A)
        let carriageReturn = v .== SIMD16<UInt8>(repeating: 0x0D)
        return Self.bits(space .| tab .| lineFeed .| carriageReturn)
    }
}
