/// The bookkeeping the scanner does at value boundaries: containers, elements, pointers.
extension ListIndexer {
    /// A value of `kind` starts at store index `start`.
    @inline(__always)
    mutating func beginValue(_ kind: ValueKind, at start: Int) throws(FolioError) {
        if depth == itemsDepth {
            guard starts.count < maxItems else { throw tooManyItems() }
            starts.append(UInt32(truncatingIfNeeded: start))
            elementStart = start
        }
        if topRelevant { try matchPointers(kind, at: start) }
    }

    /// The value whose parent is at `depth` ended just before store index `end`.
    @inline(__always)
    mutating func endValue(_ base: UnsafePointer<UInt8>, at end: Int) {
        if depth == itemsDepth {
            ends.append(UInt32(truncatingIfNeeded: end))
            hasher.element(base, start: elementStart, end: end)
        }
        if openCaptures > 0 { closeCaptures(at: end) }
        phase = depth == 0 ? .done : .afterValue
    }

    @inline(__always)
    mutating func push(object: Bool, at index: Int) throws(FolioError) {
        guard depth < maxDepth else { throw tooDeep(at: index) }
        depth &+= 1
        topIsObject = object
        topRelevant = pendingRelevant
        pendingRelevant = false
        stack.append((object ? 1 : 0) | (topRelevant ? 2 : 0))
    }

    /// Closes the innermost container, whose closing bracket is at store index `index`.
    @inline(__always)
    mutating func closeContainer(_ base: UnsafePointer<UInt8>, at index: Int) throws(FolioError) {
        if topRelevant { pointersLeave() }
        if depth == itemsDepth { itemsDepth = -1 }
        stack.removeLast()
        depth &-= 1
        if let top = stack.last {
            topIsObject = top & 1 != 0
            topRelevant = top & 2 != 0
        } else {
            topIsObject = false
            topRelevant = false
        }
        endValue(base, at: index + 1)
    }

    @inline(never)
    func tooManyItems() -> FolioError {
        .upstreamLimit("upstream list exceeds limits.maxItems (\(maxItems) items)", limit: .maxItems)
    }

    @inline(never)
    func tooDeep(at index: Int) -> FolioError {
        .upstreamLimit(
            "upstream JSON nests deeper than limits.maxJSONDepth (\(maxDepth)) at byte \(index - bodyStart)",
            limit: .maxJSONDepth)
    }

    @inline(__always)
    mutating func beginLiteral(_ bytes: UInt64, length: Int) {
        literal = bytes
        literalLength = length
        literalIndex = 1
        phase = .literal
    }

    // Literals packed little-endian, so byte k is `literal >> (8 * k)`.
    static let trueLiteral: UInt64 = 0x6575_7274
    static let falseLiteral: UInt64 = 0x65_736C_6166
    static let nullLiteral: UInt64 = 0x6C6C_756E

    static func literalText(_ literal: UInt64, _ length: Int) -> String {
        String(decoding: (0..<length).map { UInt8(truncatingIfNeeded: literal >> (8 * UInt64($0))) }, as: UTF8.self)
    }

    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Skips whitespace; after a newline, indentation is skipped 8 spaces at a time.
    @inline(__always)
    static func skipWhitespace(_ base: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int) {
        while i < end {
            let c = base[i]
            guard c <= 0x20, isWhitespace(c) else { return }
            i &+= 1
            if c == 0x0A {
                while i &+ 8 <= end, UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) == 0x2020_2020_2020_2020
                {
                    i &+= 8
                }
            }
        }
    }

    @inline(__always)
    static func isHexDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10 || (byte | 0x20) &- UInt8(ascii: "a") < 6
    }

    /// A byte that ends a run of plain string text: `"`, `\`, a control character or non-ASCII.
    @inline(__always)
    static func isStringSpecial(_ byte: UInt8) -> Bool {
        byte &- 0x20 >= 0x60 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Whether any of the 8 bytes in `word` is string-special (exact, SWAR "has less than").
    @inline(__always)
    static func hasStringSpecial(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote
        let hasBackslash = (backslash &- ones) & ~backslash
        let hasControl = (word &- ones &* 0x20) & ~word
        return ((hasQuote | hasBackslash | hasControl) & highs) | (word & highs) != 0
    }
}
