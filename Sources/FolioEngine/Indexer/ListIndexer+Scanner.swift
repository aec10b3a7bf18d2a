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

    /// Kept out of line: error paths must not bloat the scanning loops.
    @inline(never)
    func invalidJSON(at index: Int, _ expected: String) -> FolioError {
        .badUpstreamBody("invalid JSON at byte \(index - bodyStart): \(expected)")
    }

    /// Scans `base[resume..<end]`, the bytes of the current body not yet scanned.
    ///
    /// Between elements of an items array nobody looks into, whole elements are skimmed
    /// (ListIndexer+Skim.swift); the switch below reads what the skim leaves.
    ///
    /// Each phase's case handles a resumed token; the helpers then chain straight into what
    /// usually follows (key, colon, value; value, comma), so the common path does not go back
    /// through the dispatch for every token.
    mutating func scan(_ base: UnsafePointer<UInt8>, upTo end: Int) throws(FolioError) {
        var i = resume
        defer { resume = i }
        scan: while i < end {
            if depth == itemsDepth, !topRelevant, openCaptures == 0,
                phase == .afterValue || phase == .value || phase == .valueOrArrayEnd
            {
                skimElements(base, &i, end)
                guard i < end else { break scan }
            }
            switch phase {
            case .afterValue:
                Self.skipWhitespace(base, &i, end)
                guard i < end else { break scan }
                let c = base[i]
                if c == UInt8(ascii: ",") {
                    i &+= 1
                    if topIsObject {
                        phase = .key
                        try scanMember(base, &i, end)
                    } else {
                        phase = .value
                        Self.skipWhitespace(base, &i, end)
                        guard i < end else { break scan }
                        try scanValue(base, &i, end)
                    }
                } else if c == (topIsObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    try closeContainer(base, at: i)
                    i &+= 1
                } else {
                    throw invalidJSON(at: i, topIsObject ? "expected ',' or '}'" : "expected ',' or ']'")
                }

            case .value, .valueOrArrayEnd:
                Self.skipWhitespace(base, &i, end)
                guard i < end else { break scan }
                if phase == .valueOrArrayEnd, base[i] == UInt8(ascii: "]") {
                    try closeContainer(base, at: i)
                    i &+= 1
                } else {
                    try scanValue(base, &i, end)
                }

            case .keyOrObjectEnd, .key:
                Self.skipWhitespace(base, &i, end)
                guard i < end else { break scan }
                if phase == .keyOrObjectEnd, base[i] == UInt8(ascii: "}") {
                    try closeContainer(base, at: i)
                    i &+= 1
                } else {
                    try scanMember(base, &i, end)
                }

            case .string:
                guard try scanStringContent(base, &i, end) else { break scan }
                i &+= 1
                endValue(base, at: i)

            case .keyString:
                guard try scanStringContent(base, &i, end) else { break scan }
                try finishKey(base, &i, end)

            case .colon:
                try scanColonAndValue(base, &i, end)

            case .number:
                guard try scanNumber(base, &i, end) else { break scan }

            case .literal:
                guard try scanLiteral(base, &i, end) else { break scan }

            case .done:
                Self.skipWhitespace(base, &i, end)
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

    /// At the first byte of a value (not whitespace): starts it and scans it as far as the bytes
    /// go, leaving `phase` where it stopped.
    @inline(__always)
    private mutating func scanValue(_ base: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int) throws(FolioError) {
        let c = base[i]
        switch c {
        case UInt8(ascii: "\""):
            try beginValue(.string, at: i)
            i &+= 1
            phase = .string
            if try scanStringContent(base, &i, end) {
                i &+= 1
                endValue(base, at: i)
            }
        case UInt8(ascii: "{"):
            try beginValue(.object, at: i)
            try push(object: true, at: i)
            phase = .keyOrObjectEnd
            i &+= 1
        case UInt8(ascii: "["):
            try beginValue(.array, at: i)
            try push(object: false, at: i)
            phase = .valueOrArrayEnd
            i &+= 1
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try beginValue(.number, at: i)
            if i &+ 32 <= end, let numberEnd = Self.plainNumberEnd(base, at: i) {
                i = numberEnd
                endValue(base, at: i)
                return
            }
            numberPart = c == UInt8(ascii: "-") ? .sign : c == UInt8(ascii: "0") ? .zero : .integer
            phase = .number
            i &+= 1
            _ = try scanNumber(base, &i, end)
        case UInt8(ascii: "t"):
            try beginValue(.boolean, at: i)
            beginLiteral(Self.trueLiteral, length: 4)
            i &+= 1
            _ = try scanLiteral(base, &i, end)
        case UInt8(ascii: "f"):
            try beginValue(.boolean, at: i)
            beginLiteral(Self.falseLiteral, length: 5)
            i &+= 1
            _ = try scanLiteral(base, &i, end)
        case UInt8(ascii: "n"):
            try beginValue(.null, at: i)
            beginLiteral(Self.nullLiteral, length: 4)
            i &+= 1
            _ = try scanLiteral(base, &i, end)
        default:
            throw invalidJSON(at: i, phase == .valueOrArrayEnd ? "expected a value or ']'" : "expected a value")
        }
    }

    /// Expecting an object key (phase `.key` or `.keyOrObjectEnd`); chains into its value.
    @inline(__always)
    private mutating func scanMember(_ base: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int) throws(FolioError) {
        Self.skipWhitespace(base, &i, end)
        guard i < end else { return }
        guard base[i] == UInt8(ascii: "\"") else {
            throw invalidJSON(
                at: i, phase == .keyOrObjectEnd ? "expected a string key or '}'" : "expected a string key")
        }
        keyStart = i
        i &+= 1
        phase = .keyString
        guard try scanStringContent(base, &i, end) else { return }
        try finishKey(base, &i, end)
    }

    /// `base[i]` is the key's closing quote.
    @inline(__always)
    private mutating func finishKey(_ base: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int) throws(FolioError) {
        if topRelevant { matchKey(base, from: keyStart + 1, to: i) }
        i &+= 1
        phase = .colon
        try scanColonAndValue(base, &i, end)
    }

    @inline(__always)
    private mutating func scanColonAndValue(_ base: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int) throws(FolioError)
    {
        Self.skipWhitespace(base, &i, end)
        guard i < end else { return }
        guard base[i] == UInt8(ascii: ":") else { throw invalidJSON(at: i, "expected ':'") }
        i &+= 1
        phase = .value
        Self.skipWhitespace(base, &i, end)
        guard i < end else { return }
        try scanValue(base, &i, end)
    }
}
