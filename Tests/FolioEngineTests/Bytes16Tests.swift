import Testing

@testable import FolioEngine

/// The 16-byte classifier against the scanner's scalar definitions, for every byte value in every
/// lane (a wrong comparison, weight or lane order in the mask fails here).
@Suite struct Bytes16Tests {
    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// The masks of `bytes`, bit k for byte k, computed one byte at a time.
    static func reference(_ bytes: [UInt8]) -> (stops: UInt32, digits: UInt32, whitespace: UInt32) {
        var result: (stops: UInt32, digits: UInt32, whitespace: UInt32) = (0, 0, 0)
        for (k, byte) in bytes.enumerated() {
            if ListIndexer.isStringSpecial(byte) { result.stops |= 1 << k }
            if isDigit(byte) { result.digits |= 1 << k }
            if ListIndexer.isWhitespace(byte) { result.whitespace |= 1 << k }
        }
        return result
    }

    static func check(_ bytes: [UInt8], _ comment: Comment) {
        let block = bytes.withUnsafeBufferPointer { Bytes16($0.baseAddress!) }
        let expected = reference(bytes)
        #expect(block.stringStops == expected.stops, comment)
        #expect(block.digits == expected.digits, comment)
        #expect(block.whitespace == expected.whitespace, comment)
    }

    @Test func everyByteInEveryLane() {
        for byte in UInt8.min...UInt8.max {
            for lane in 0..<16 {
                for filler in [UInt8(ascii: "a"), UInt8(ascii: "\""), UInt8(ascii: "5"), 0x20, 0xFF, 0x00] {
                    var bytes = [UInt8](repeating: filler, count: 16)
                    bytes[lane] = byte
                    Self.check(bytes, "byte \(byte) in lane \(lane) among \(filler)")
                }
            }
        }
    }

    static let interesting: [UInt8] =
        Array(#"" \/09:,{}[]-.eE"#.utf8) + [0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x7F, 0x80, 0xC3, 0xFF]

    /// `count` bytes, half of them picked from `interesting`.
    static func randomBytes(_ count: Int, _ rng: inout SplitMix64) -> [UInt8] {
        (0..<count).map { _ in rng.chance(50) ? rng.pick(interesting) : UInt8(truncatingIfNeeded: rng.next()) }
    }

    @Test func randomBlocks() {
        var rng = SplitMix64(seed: 16)
        for round in 0..<20_000 {
            let bytes = Self.randomBytes(16, &rng)
            Self.check(bytes, "round \(round): \(bytes)")
        }
    }

    /// A loaded `StringWindow` holds its 64 bytes' string stops and quotes, bit k for byte k.
    @Test func stringWindowsOf64Bytes() {
        var rng = SplitMix64(seed: 64)
        for round in 0..<5_000 {
            let bytes = Self.randomBytes(64, &rng)
            var window = StringWindow(before: 0)
            bytes.withUnsafeBufferPointer { window.load($0.baseAddress!, at: 0) }
            var stops: UInt64 = 0
            var quotes: UInt64 = 0
            for (k, byte) in bytes.enumerated() {
                if ListIndexer.isStringSpecial(byte) { stops |= 1 << k }
                if byte == UInt8(ascii: "\"") { quotes |= 1 << k }
            }
            #expect(window.start == 0 && window.stops == stops && window.quotes == quotes, "round \(round): \(bytes)")
        }
    }

    /// `plainNumberEnd` either declines or ends the number where the byte-by-byte scanner does.
    @Test func plainNumbersEndWhereTheScannerEnds() {
        let accepted = [
            "0,", "-0]", "7}", "150.74,", "-12.5 ", "123456789012345,", "0.000001]", "1.5\"", "9x", "1e5,",
            "1E+5]", "2.5e-3,", "-12.5E10 ", "7e0.", "1e05x", "0.5e1e", "1234567890123456,", "0.30000000000000004,",
            "-1.2345678901234567e-05]", "123456789012e+12,", "1234567890123456789012345678901,",
        ]
        let declined = [
            "01,", "-,", "-a", "1.,", "1.e5", "1e,", "1e+,", "1E-a", "2.5e", "1.2.3", "12.",
            "12345678901234567890123456789012,",  // no end within 32 bytes
            "0.123456789012345678901234567890,", "1.5e123456789012345678901234567", "-", ".5,",
        ]
        for text in accepted + declined {
            var bytes = Array(text.utf8)
            bytes += [UInt8](repeating: UInt8(ascii: "1"), count: 64 - bytes.count)
            let end = bytes.withUnsafeBufferPointer { ListIndexer.plainNumberEnd($0.baseAddress!, at: 0) }
            if accepted.contains(text) {
                #expect(end == text.utf8.count - 1, "\(text)")
            } else {
                #expect(end == nil, "\(text)")
            }
        }
    }
}
