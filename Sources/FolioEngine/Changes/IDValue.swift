/// One item's id as docs/API.md, "Changes between snapshots" compares it: a JSON string by its
/// decoded text, a JSON number by its exact decimal value, never one equal to the other.
///
/// Read in place from the list's bytes; nothing is copied unless a string holds escapes. The
/// canonical form that `hash` and `==` agree on is, for a string, its decoded text with lone
/// surrogates kept as their own code points (WTF-8: `"\ud800"` is not `"\ufffd"`, as in
/// `JSON.parse`); for a number, its sign, its decimal exponent and its significant digits
/// (`DecimalNumber`, so `7` = `7.0` = `7e0` = `70e-1` and `-0` = `0`). Exponents beyond ±10^12
/// saturate as `DecimalNumber` reads them; no real id is written so.
enum IDValue {
    case string(contents: Range<Int>, escaped: Bool)
    case number(DecimalNumber)

    /// The value starting at `start` (its first byte) within `end`, or nil when it is neither a
    /// string nor a number.
    @inline(__always)
    init?(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
        let first = bytes[start]
        if first == JSONScan.quote {
            guard let (after, escaped) = JSONScan.skipString(bytes, start, end) else { return nil }
            self = .string(contents: start + 1..<after - 1, escaped: escaped)
        } else if first == UInt8(ascii: "-") || DecimalNumber.isDigit(first) {
            guard let number = DecimalNumber(bytes, start, end) else { return nil }
            self = .number(number)
        } else {
            return nil
        }
    }

    /// The id of element `range` at `field`, or nil when it has none.
    @inline(__always)
    init?(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, field: FieldPath) {
        guard let start = field.valueStart(in: bytes, range) else { return nil }
        self.init(bytes, start, range.upperBound)
    }

    /// A hash of the canonical form, seeded per process (`Hasher`): equal ids hash equal, and
    /// an upstream cannot choose ids that collide. Never store it beyond the process.
    /// `scratch` is reused for strings with escapes, so hashing allocates nothing per item.
    @inline(__always)
    func hash(_ bytes: UnsafeBufferPointer<UInt8>, scratch: inout [UInt8]) -> UInt32 {
        var hasher = Hasher()
        switch self {
        case .string(let contents, let escaped):
            hasher.combine(UInt8(ascii: "s"))
            if escaped {
                scratch.removeAll(keepingCapacity: true)
                Self.appendDecoded(bytes, contents, to: &scratch)
                scratch.withUnsafeBytes { hasher.combine(bytes: $0) }
            } else {
                hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[contents])))
            }
        case .number(let number):
            hasher.combine(UInt8(ascii: "n"))
            hasher.combine(number.sign)
            if number.sign != 0 {
                hasher.combine(number.exponent)
                let raw = UnsafeRawBufferPointer(bytes)
                if number.point >= 0 {
                    hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw[number.firstDigit..<number.point]))
                    hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw[number.point + 1...number.lastDigit]))
                } else {
                    hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw[number.firstDigit...number.lastDigit]))
                }
            }
        }
        return UInt32(truncatingIfNeeded: hasher.finalize())
    }

    /// Whether two ids are the same JSON value (each read from its own list's bytes).
    static func equal(
        _ a: IDValue, _ aBytes: UnsafeBufferPointer<UInt8>, _ b: IDValue, _ bBytes: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return DecimalNumber.compare(x, aBytes, y, bBytes) == 0
        case (.string(let x, let xEscaped), .string(let y, let yEscaped)):
            if !xEscaped, !yEscaped {
                return x.count == y.count
                    && memoryEqual(aBytes.baseAddress! + x.lowerBound, bBytes.baseAddress! + y.lowerBound, x.count)
            }
            var left: [UInt8] = []
            var right: [UInt8] = []
            appendDecoded(aBytes, x, to: &left)
            appendDecoded(bBytes, y, to: &right)
            return left == right
        default:
            return false
        }
    }

    /// A string's contents with escapes resolved, as WTF-8: a lone surrogate escape becomes its
    /// own three bytes (which no valid UTF-8 text holds), so it equals only itself.
    static func appendDecoded(_ bytes: UnsafeBufferPointer<UInt8>, _ contents: Range<Int>, to out: inout [UInt8]) {
        let end = contents.upperBound
        var index = contents.lowerBound
        while index < end {
            let byte = bytes[index]
            guard byte == JSONScan.backslash, index + 1 < end else {
                out.append(byte)
                index += 1
                continue
            }
            let code = bytes[index + 1]
            index += 2
            guard code == UInt8(ascii: "u") else {
                out.append(Self.shortEscapes[Int(code)])
                continue
            }
            guard var point = codeUnit(bytes, index, end) else { return }
            index += 4
            if (0xD800..<0xDC00).contains(point), index + 6 <= end, bytes[index] == JSONScan.backslash,
                bytes[index + 1] == UInt8(ascii: "u"), let low = codeUnit(bytes, index + 2, end),
                (0xDC00..<0xE000).contains(low)
            {
                point = 0x10000 + (point - 0xD800) << 10 + (low - 0xDC00)
                index += 6
            }
            if let scalar = Unicode.Scalar(point) {
                JSONScan.appendUTF8(scalar, to: &out)
            } else {
                out += [0xED, UInt8(0x80 | (point >> 6) & 0x3F), UInt8(0x80 | point & 0x3F)]
            }
        }
    }

    /// What `\X` stands for, by `X`: `\n` is a line feed, `\"` a quote (every other byte itself).
    private static let shortEscapes: [UInt8] = (0...255).map { code in
        switch UInt8(code) {
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: UInt8(code)
        }
    }

    /// The four hex digits of a `\u` escape.
    private static func codeUnit(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt32? {
        guard start + 4 <= end else { return nil }
        var value: UInt32 = 0
        for index in start..<start + 4 {
            guard let digit = Character(Unicode.Scalar(bytes[index])).hexDigitValue else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
