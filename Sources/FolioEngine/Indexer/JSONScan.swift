/// Byte-level reading of one JSON value inside an element, without decoding the element.
///
/// The list was validated when it was indexed, so these readers trust the grammar but never trap
/// on malformed input: anything unexpected reads as "missing".
enum JSONScan {
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")

    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    @inline(__always)
    static func skipWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, _ end: Int) {
        while index < end, isWhitespace(bytes[index]) { index += 1 }
    }

    /// `start` is at an opening quote. Returns the index after the closing quote and whether the
    /// contents hold a backslash escape.
    @inline(__always)
    static func skipString(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> (
        after: Int, escaped: Bool
    )? {
        var index = start + 1
        var escaped = false
        guard let base = bytes.baseAddress else { return nil }
        while index < end {
            // Eight bytes at a time to the next quote or backslash (most strings hold neither
            // for a while): a sort or filter reads past every other member of every item.
            while index + 8 <= end {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                let found = zeroBytes(word ^ 0x2222_2222_2222_2222) | zeroBytes(word ^ 0x5C5C_5C5C_5C5C_5C5C)
                if found != 0 {
                    index += found.trailingZeroBitCount >> 3
                    break
                }
                index += 8
            }
            guard index < end else { return nil }
            let byte = bytes[index]
            if byte == quote { return (index + 1, escaped) }
            if byte == backslash {
                escaped = true
                index += 2
            } else {
                index += 1
            }
        }
        return nil
    }

    /// The high bit of each zero byte of `word`. Bytes above the lowest zero byte may be flagged
    /// falsely (a borrow), so only the lowest flag is meaningful.
    @inline(__always)
    static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }

    /// Index just after the value starting at `start`, iteratively (no recursion on depth).
    static func skipValue(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        guard start < end else { return nil }
        switch bytes[start] {
        case quote:
            return skipString(bytes, start, end)?.after
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < end {
                switch bytes[index] {
                case quote:
                    guard let after = skipString(bytes, index, end)?.after else { return nil }
                    index = after
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default:
                    break
                }
                index += 1
            }
            return nil
        default:
            // Numbers and literals run to the next structural character or whitespace.
            var index = start
            while index < end {
                let byte = bytes[index]
                if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
                    || isWhitespace(byte)
                {
                    break
                }
                index += 1
            }
            return index
        }
    }

    /// The UTF-8 of a string's contents with escapes resolved; lone surrogates become U+FFFD
    /// (the folded form of a value, as sorting and sections compare it).
    static func unescape(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> [UInt8] {
        decode(bytes, range, loneSurrogates: .replace)!
    }

    /// What `decode` does with an escaped surrogate that has no partner.
    enum LoneSurrogates { case replace, reject }

    /// Resolves the escapes of a string's contents to UTF-8; with `.reject`, nil for a lone
    /// surrogate (which no Swift `String`, hence no JSON Pointer token, can equal). Assumes the
    /// indexer's validation ran; a truncated escape ends the output there.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, loneSurrogates: LoneSurrogates)
        -> [UInt8]?
    {
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        var index = range.lowerBound
        let end = range.upperBound
        while index < end {
            let byte = bytes[index]
            guard byte == backslash, index + 1 < end else {
                out.append(byte)
                index += 1
                continue
            }
            let code = bytes[index + 1]
            index += 2
            switch code {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard let unit = hex4(bytes, index, end) else { return out }
                index += 4
                var scalar = UInt32(unit)
                var lone = (0xDC00..<0xE000).contains(unit)
                if (0xD800..<0xDC00).contains(unit) {
                    if index + 6 <= end, bytes[index] == backslash, bytes[index + 1] == UInt8(ascii: "u"),
                        let low = hex4(bytes, index + 2, end), (0xDC00..<0xE000).contains(low)
                    {
                        scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                        index += 6
                    } else {
                        lone = true
                    }
                }
                if lone {
                    guard loneSurrogates == .replace else { return nil }
                    scalar = 0xFFFD
                }
                appendUTF8(Unicode.Scalar(scalar) ?? "\u{FFFD}", to: &out)
            default:
                out.append(code)  // \" \\ \/
            }
        }
        return out
    }

    static func appendUTF8(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        let value = scalar.value
        switch value {
        case 0..<0x80:
            out.append(UInt8(value))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | (value >> 6)))
            out.append(UInt8(0x80 | (value & 0x3F)))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | (value >> 12)))
            out.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (value & 0x3F)))
        default:
            out.append(UInt8(0xF0 | (value >> 18)))
            out.append(UInt8(0x80 | ((value >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (value & 0x3F)))
        }
    }

    private static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt16? {
        guard start + 4 <= end else { return nil }
        var value: UInt16 = 0
        for index in start..<start + 4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }
}
