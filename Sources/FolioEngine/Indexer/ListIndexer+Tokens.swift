/// The scanner's tokens: strings (escapes, strict UTF-8), numbers and literals.
///
/// Numbers and literals resume at any byte (`numberPart`, `literalIndex`); strings stop before
/// an escape or UTF-8 sequence the chunk cuts, which is re-read when more bytes arrive.
extension ListIndexer {
    /// Scans string content up to its closing quote: true with `i` at the quote, false when the
    /// bytes end first (with `i` at the start of an incomplete escape or UTF-8 sequence).
    @inline(__always)
    func scanStringContent(_ base: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int) throws(FolioError) -> Bool {
        while true {
            if i &+ 16 <= end {
                let stops = Bytes16(base + i).stringStops
                guard stops != 0 else {
                    i &+= 16
                    continue
                }
                i &+= stops.trailingZeroBitCount
            } else {
                while i &+ 8 <= end, !Self.hasStringSpecial(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) {
                    i &+= 8
                }
                while i < end, !Self.isStringSpecial(base[i]) { i &+= 1 }
                guard i < end else { return false }
            }
            let c = base[i]
            if c == UInt8(ascii: "\"") { return true }
            if c == UInt8(ascii: "\\") {
                guard i + 1 < end else { return false }
                switch base[i + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                    UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    i &+= 2
                case UInt8(ascii: "u"):
                    let available = min(i + 6, end)
                    var h = i + 2
                    while h < available {
                        guard Self.isHexDigit(base[h]) else {
                            throw invalidJSON(at: h, "expected 4 hex digits after '\\u'")
                        }
                        h += 1
                    }
                    guard available == i + 6 else { return false }
                    i &+= 6
                default:
                    throw invalidJSON(at: i, "invalid escape in string")
                }
            } else if c < 0x20 {
                throw invalidJSON(at: i, "unescaped control character in string")
            } else {
                let length = try utf8Sequence(base, at: i, end: end)
                guard length > 0 else { return false }
                i &+= length
            }
        }
    }

    /// The end of the number starting at `base[start]` when it is valid and ends within 32
    /// bytes (a double's 17 digits and exponent fit); nil for anything else (invalid, longer, or
    /// a second `.` after the fraction), which `scanNumber` then reads byte by byte and reports,
    /// if it is invalid. Needs 32 bytes.
    @inline(__always)
    static func plainNumberEnd(_ base: UnsafePointer<UInt8>, at start: Int) -> Int? {
        let low = UInt64(Bytes16(base + start).digits)
        let high = UInt64(Bytes16(base + (start + 16)).digits)
        let nonDigits = ~(low | high << 16)  // bits 32...63 set: every run ends by bit 32
        var k = base[start] == UInt8(ascii: "-") ? 1 : 0
        let integer = (nonDigits >> k).trailingZeroBitCount
        guard integer > 0, integer == 1 || base[start + k] != UInt8(ascii: "0") else { return nil }
        k += integer
        guard k < 32 else { return nil }
        if base[start + k] == UInt8(ascii: ".") {
            let fraction = (nonDigits >> (k + 1)).trailingZeroBitCount
            guard fraction > 0 else { return nil }
            k += 1 + fraction
            guard k < 32 else { return nil }
        }
        let next = base[start + k]
        if next | 0x20 == UInt8(ascii: "e") {
            k += 1
            guard k < 32 else { return nil }
            let sign = base[start + k]
            if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { k += 1 }
            let exponent = (nonDigits >> k).trailingZeroBitCount
            guard exponent > 0 else { return nil }
            k += exponent
            // After the exponent's digits the number ends at any byte, as in `scanNumber`.
            return k < 32 ? start + k : nil
        }
        guard next != UInt8(ascii: ".") else { return nil }
        return start + k
    }

    /// Continues the number from `numberPart`; when it ends, closes the value and returns true.
    @inline(__always)
    mutating func scanNumber(_ base: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int) throws(FolioError) -> Bool {
        var part = numberPart
        while i < end {
            let c = base[i]
            let isDigit = c &- UInt8(ascii: "0") < 10
            switch part {
            case .sign:
                guard isDigit else { throw invalidJSON(at: i, "expected a digit after '-'") }
                part = c == UInt8(ascii: "0") ? .zero : .integer
                i &+= 1
            case .zero, .integer, .fraction:
                if isDigit {
                    if part == .zero { throw invalidJSON(at: i, "leading zero in number") }
                    i &+= 1
                    while i < end, base[i] &- UInt8(ascii: "0") < 10 { i &+= 1 }
                } else if c == UInt8(ascii: "."), part != .fraction {
                    part = .point
                    i &+= 1
                } else if c | 0x20 == UInt8(ascii: "e") {
                    part = .exponentMark
                    i &+= 1
                } else {
                    endValue(base, at: i)
                    return true
                }
            case .point:
                guard isDigit else { throw invalidJSON(at: i, "expected a digit after '.'") }
                part = .fraction
                i &+= 1
            case .exponentMark:
                if c == UInt8(ascii: "+") || c == UInt8(ascii: "-") {
                    part = .exponentSign
                } else if isDigit {
                    part = .exponent
                } else {
                    throw invalidJSON(at: i, "expected a digit or sign in exponent")
                }
                i &+= 1
            case .exponentSign:
                guard isDigit else { throw invalidJSON(at: i, "expected a digit in exponent") }
                part = .exponent
                i &+= 1
            case .exponent:
                guard isDigit else {
                    endValue(base, at: i)
                    return true
                }
                i &+= 1
                while i < end, base[i] &- UInt8(ascii: "0") < 10 { i &+= 1 }
            }
        }
        numberPart = part
        return false
    }

    /// Continues the literal from `literalIndex`; when it is complete, closes the value.
    @inline(__always)
    mutating func scanLiteral(_ base: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int) throws(FolioError) -> Bool {
        while literalIndex < literalLength {
            guard i < end else { return false }
            guard base[i] == UInt8(truncatingIfNeeded: literal >> (8 * UInt64(literalIndex))) else {
                throw invalidLiteral(at: i)
            }
            i &+= 1
            literalIndex &+= 1
        }
        endValue(base, at: i)
        return true
    }

    @inline(never)
    func invalidLiteral(at index: Int) -> FolioError {
        invalidJSON(at: index, "invalid literal, expected '\(Self.literalText(literal, literalLength))'")
    }

    /// Validates the UTF-8 sequence led by `base[at]` (at least 0x80) as far as the bytes reach:
    /// its length when complete, 0 when the chunk ends inside it. Rejects overlongs, surrogates
    /// (ED A0–BF) and anything above U+10FFFF.
    @inline(__always)
    func utf8Sequence(_ base: UnsafePointer<UInt8>, at i: Int, end: Int) throws(FolioError) -> Int {
        let length = Self.utf8Length(base, at: i, end: end)
        guard length >= 0 else { throw invalidJSON(at: i, "invalid UTF-8 in string") }
        return length
    }

    /// `utf8Sequence` without the error: -1 for an invalid sequence.
    @inline(__always)
    static func utf8Length(_ base: UnsafePointer<UInt8>, at i: Int, end: Int) -> Int {
        let lead = base[i]
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xED:
            length = 3
            high = 0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF4:
            length = 4
            high = 0x8F
        case 0xF1...0xF3: length = 4
        default: return -1
        }
        let available = min(length, end - i)
        if available >= 2 {
            let second = base[i + 1]
            guard second >= low, second <= high else { return -1 }
        }
        var next = 2
        while next < available {
            guard base[i + next] & 0xC0 == 0x80 else { return -1 }
            next += 1
        }
        return available == length ? length : 0
    }
}
