/// The resumable JSON state machine (RFC 8259) behind `ListIndexer`.
///
/// It scans the store from `resume` to its end and can stop at any byte: a number or literal
/// keeps its progress in `numberPart`/`literalIndex`, and an escape or UTF-8 sequence cut by
/// the chunk's end is re-read from its first byte when more arrives (at most 6 bytes).
/// Nesting lives in `stack`, never in recursion.
extension ListIndexer {
    enum Phase: UInt8 {
        case bodyStart, byteOrderMark
        case value, valueOrArrayEnd
        case keyOrObjectEnd, key, colon, afterValue
        case string, keyString, number, literal
        case done

        /// What was expected, for truncated bodies.
        var expectation: String {
            switch self {
            case .bodyStart, .value, .valueOrArrayEnd: "expected a value"
            case .byteOrderMark: "inside the byte order mark"
            case .keyOrObjectEnd, .key: "expected a string key"
            case .colon: "expected ':'"
            case .afterValue: "expected ',' or the end of the array or object"
            case .string, .keyString: "inside a string"
            case .number: "inside a number"
            case .literal: "inside a literal"
            case .done: "complete"
            }
        }
    }

    /// Position within `-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`.
    enum NumberPart: UInt8 {
        case sign, zero, integer, point, fraction, exponentMark, exponentSign, exponent

        var isComplete: Bool { self == .zero || self == .integer || self == .fraction || self == .exponent }
    }

    func invalidJSON(at index: Int, _ expected: String) -> FolioError {
        .badUpstreamBody("invalid JSON at byte \(index - bodyStart): \(expected)")
    }

    /// Scans `base[resume..<end]`, the bytes of the current body not yet scanned.
    mutating func scan(_ base: UnsafePointer<UInt8>, upTo end: Int) throws(FolioError) {
        var i = resume
        defer { resume = i }
        scan: while i < end {
            switch phase {
            case .string, .keyString:
                while true {
                    while i &+ 8 <= end,
                          !Self.hasStringSpecial(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) {
                        i &+= 8
                    }
                    while i < end, !Self.isStringSpecial(base[i]) { i &+= 1 }
                    guard i < end else { break scan }
                    let c = base[i]
                    if c == UInt8(ascii: "\"") {
                        if phase == .keyString {
                            if topRelevant { matchKey(base, from: keyStart + 1, to: i) }
                            phase = .colon
                            i &+= 1
                        } else {
                            i &+= 1
                            endValue(base, at: i)
                        }
                        continue scan
                    } else if c == UInt8(ascii: "\\") {
                        guard i + 1 < end else { break scan }
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
                            guard available == i + 6 else { break scan }
                            i &+= 6
                        default:
                            throw invalidJSON(at: i, "invalid escape in string")
                        }
                    } else if c < 0x20 {
                        throw invalidJSON(at: i, "unescaped control character in string")
                    } else {
                        let length = try utf8Sequence(base, at: i, end: end)
                        guard length > 0 else { break scan }
                        i &+= length
                    }
                }

            case .value, .valueOrArrayEnd:
                while i < end, Self.isWhitespace(base[i]) { i &+= 1 }
                guard i < end else { break scan }
                let c = base[i]
                switch c {
                case UInt8(ascii: "\""):
                    try beginValue(.string, at: i)
                    phase = .string
                case UInt8(ascii: "{"):
                    try beginValue(.object, at: i)
                    try push(object: true, at: i)
                    phase = .keyOrObjectEnd
                case UInt8(ascii: "["):
                    try beginValue(.array, at: i)
                    try push(object: false, at: i)
                    phase = .valueOrArrayEnd
                case UInt8(ascii: "-"):
                    try beginValue(.number, at: i)
                    numberPart = .sign
                    phase = .number
                case UInt8(ascii: "0"):
                    try beginValue(.number, at: i)
                    numberPart = .zero
                    phase = .number
                case UInt8(ascii: "1")...UInt8(ascii: "9"):
                    try beginValue(.number, at: i)
                    numberPart = .integer
                    phase = .number
                case UInt8(ascii: "t"):
                    try beginValue(.boolean, at: i)
                    beginLiteral(Self.trueLiteral, length: 4)
                case UInt8(ascii: "f"):
                    try beginValue(.boolean, at: i)
                    beginLiteral(Self.falseLiteral, length: 5)
                case UInt8(ascii: "n"):
                    try beginValue(.null, at: i)
                    beginLiteral(Self.nullLiteral, length: 4)
                case UInt8(ascii: "]") where phase == .valueOrArrayEnd:
                    try closeContainer(base, at: i)
                default:
                    throw invalidJSON(at: i, phase == .valueOrArrayEnd ? "expected a value or ']'" : "expected a value")
                }
                i &+= 1

            case .number:
                var part = numberPart
                var complete = false
                number: while i < end {
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
                            complete = true
                            break number
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
                            complete = true
                            break number
                        }
                        i &+= 1
                        while i < end, base[i] &- UInt8(ascii: "0") < 10 { i &+= 1 }
                    }
                }
                numberPart = part
                guard complete else { break scan }
                endValue(base, at: i)

            case .afterValue:
                while i < end, Self.isWhitespace(base[i]) { i &+= 1 }
                guard i < end else { break scan }
                let c = base[i]
                if c == UInt8(ascii: ",") {
                    phase = topIsObject ? .key : .value
                } else if c == (topIsObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    try closeContainer(base, at: i)
                } else {
                    throw invalidJSON(at: i, topIsObject ? "expected ',' or '}'" : "expected ',' or ']'")
                }
                i &+= 1

            case .keyOrObjectEnd, .key:
                while i < end, Self.isWhitespace(base[i]) { i &+= 1 }
                guard i < end else { break scan }
                let c = base[i]
                if c == UInt8(ascii: "\"") {
                    keyStart = i
                    phase = .keyString
                } else if c == UInt8(ascii: "}"), phase == .keyOrObjectEnd {
                    try closeContainer(base, at: i)
                } else {
                    throw invalidJSON(at: i, phase == .keyOrObjectEnd ? "expected a string key or '}'" : "expected a string key")
                }
                i &+= 1

            case .colon:
                while i < end, Self.isWhitespace(base[i]) { i &+= 1 }
                guard i < end else { break scan }
                guard base[i] == UInt8(ascii: ":") else { throw invalidJSON(at: i, "expected ':'") }
                phase = .value
                i &+= 1

            case .literal:
                while literalIndex < literalLength {
                    guard i < end else { break scan }
                    guard base[i] == UInt8(truncatingIfNeeded: literal >> (8 * UInt64(literalIndex))) else {
                        throw invalidJSON(at: i, "invalid literal, expected '\(Self.literalText(literal, literalLength))'")
                    }
                    i &+= 1
                    literalIndex &+= 1
                }
                endValue(base, at: i)

            case .done:
                while i < end, Self.isWhitespace(base[i]) { i &+= 1 }
                guard i < end else { break scan }
                throw invalidJSON(at: i, "unexpected data after the JSON value")

            case .bodyStart:
                if base[i] == 0xEF {
                    phase = .byteOrderMark
                    bomMatched = 1
                    i &+= 1
                } else {
                    phase = .value
                }

            case .byteOrderMark:
                guard base[i] == (bomMatched == 1 ? 0xBB : 0xBF) else {
                    throw invalidJSON(at: i, "invalid byte order mark")
                }
                bomMatched += 1
                i &+= 1
                if bomMatched == 3 { phase = .value }
            }
        }
    }

    /// Validates the UTF-8 sequence led by `base[at]` (at least 0x80) as far as the bytes reach:
    /// its length when complete, 0 when the chunk ends inside it. Rejects overlongs, surrogates
    /// (ED A0–BF) and anything above U+10FFFF.
    @inline(__always)
    private func utf8Sequence(_ base: UnsafePointer<UInt8>, at i: Int, end: Int) throws(FolioError) -> Int {
        let lead = base[i]
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xED: length = 3; high = 0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0: length = 4; low = 0x90
        case 0xF4: length = 4; high = 0x8F
        case 0xF1...0xF3: length = 4
        default: throw invalidJSON(at: i, "invalid UTF-8 in string")
        }
        let available = min(length, end - i)
        if available >= 2 {
            let second = base[i + 1]
            guard second >= low, second <= high else { throw invalidJSON(at: i, "invalid UTF-8 in string") }
        }
        var next = 2
        while next < available {
            guard base[i + next] & 0xC0 == 0x80 else { throw invalidJSON(at: i, "invalid UTF-8 in string") }
            next += 1
        }
        return available == length ? length : 0
    }
}
