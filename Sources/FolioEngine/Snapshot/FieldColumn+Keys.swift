extension FieldColumn {
    @inline(__always) func kind(_ element: Int) -> Kind { Kind(rawValue: kinds[element])! }

    /// The type class an element sorts in, ascending (docs/API.md, "Sorting"); `nullTier` is
    /// always last.
    @inline(__always) func tier(_ element: Int) -> UInt8 {
        let kind = kind(element)
        switch rule {
        case .sectionKey:
            switch kind {
            case .asciiString, .foldedString: return 0
            case .missing: return 2
            default: return 1
            }
        case .crossType:
            switch kind {
            case .number: return 0
            case .asciiString, .foldedString: return 1
            case .falseValue, .trueValue: return 2
            case .composite: return 3
            case .missing: return 4
            }
        }
    }

    /// Tiers whose order the first key settles completely: ties all through.
    func prefixDecides(_ tier: UInt8) -> Bool {
        switch rule {
        case .sectionKey: tier != 0
        case .crossType: tier >= 2
        }
    }

    func isStringTier(_ tier: UInt8) -> Bool { tier == (rule == .sectionKey ? 0 : 1) }

    /// A string's parts: rank of its title, its folded rest, its exact (decoded) bytes.
    struct StringParts {
        var rank: UInt32
        var rest: UnsafePointer<UInt8>
        var restCount: Int
        var exact: UnsafePointer<UInt8>
        var exactCount: Int
    }

    @inline(__always) func stringParts(_ element: Int) -> StringParts {
        let base = bytes.baseAddress!
        if kinds[element] == Kind.asciiString.rawValue {
            let start = Int(first[element])
            let count = Int(second[element])
            if count > 0, (base[start] | 0x20) &- 0x61 < 26 {
                return StringParts(
                    rank: UInt32(base[start] | 0x20) - 0x61, rest: base + start + 1,
                    restCount: count - 1, exact: base + start, exactCount: count)
            }
            return StringParts(
                rank: hashRank, rest: base + start, restCount: count, exact: base + start, exactCount: count)
        }
        let entry = folded[Int(first[element])]
        let arenaBase = UnsafePointer(arena.baseAddress!)
        return StringParts(
            rank: entry.rank, rest: arenaBase + Int(entry.restStart), restCount: Int(entry.restCount),
            exact: (entry.exactInArena ? arenaBase : base) + Int(entry.exactStart),
            exactCount: Int(entry.exactCount))
    }

    @inline(__always) func number(_ element: Int) -> DecimalNumber {
        DecimalNumber(bytes, Int(first[element]), Int(second[element])) ?? .zero
    }

    /// First radix key: tier in the top 3 bits, then a payload that orders like the value.
    /// `exact` is cleared for a number the key does not hold whole (`DecimalNumber.prefixIsExact`).
    func prefix(_ element: Int, descending: Bool, exact: inout Bool) -> UInt64 {
        let tier = tier(element)
        var payload: UInt64 = 0
        switch kind(element) {
        case .asciiString, .foldedString:
            let parts = stringParts(element)
            let restShift = 61 - rankBits - 8 * prefixBytes
            payload =
                UInt64(parts.rank) << UInt64(61 - rankBits)
                | Self.bigEndianBytes(parts.rest, parts.restCount, from: 0, count: prefixBytes) << UInt64(restShift)
        case .number:
            if rule == .crossType {
                let number = number(element)
                payload = number.sortPrefix(bytes)
                exact = number.prefixIsExact
            }
        case .trueValue:
            if rule == .crossType { payload = 1 }
        default:
            break
        }
        guard descending, tier != nullTier else { return UInt64(tier) << 61 | payload }
        return UInt64(nullTier - 1 - tier) << 61 | (~payload & (1 << 61 - 1))
    }

    /// Later radix keys of a string: eight more bytes of the folded rest per depth (depth ≥ 1).
    @inline(__always) func chunk(_ element: Int, depth: Int, descending: Bool) -> UInt64 {
        let parts = stringParts(element)
        let value = Self.bigEndianBytes(parts.rest, parts.restCount, from: prefixBytes + 8 * (depth - 1), count: 8)
        return descending ? ~value : value
    }

    static let noCaseTail = UInt64.max

    /// For an unescaped ASCII string of at most 56 bytes: its length, then one bit per byte (first
    /// byte highest) set for `a`–`z`. Among strings of one folded key and one length, the exact
    /// bytes differ only in case, and `A` < `a`, so these words order them exactly and are equal
    /// exactly when the strings are. `noCaseTail` otherwise.
    @inline(__always) func caseTail(_ element: Int) -> UInt64 {
        guard kinds[element] == Kind.asciiString.rawValue else { return Self.noCaseTail }
        let count = Int(second[element])
        guard count <= 56 else { return Self.noCaseTail }
        let start = bytes.baseAddress! + Int(first[element])
        var mask: UInt64 = 0
        for index in 0..<count where start[index] &- 0x61 < 26 { mask |= 1 << UInt64(55 - index) }
        return UInt64(count) << 56 | mask
    }

    /// How many chunk depths a string's rest needs beyond the first key.
    @inline(__always) func chunkDepth(_ element: Int) -> Int {
        let extra = stringParts(element).restCount - prefixBytes
        return extra <= 0 ? 0 : (extra + 7) / 8
    }

    @inline(__always)
    private static func bigEndianBytes(_ pointer: UnsafePointer<UInt8>, _ length: Int, from offset: Int, count: Int)
        -> UInt64
    {
        var value: UInt64 = 0
        for index in offset..<offset + count {
            value = value << 8 | UInt64(index < length ? upper(pointer[index]) : 0)
        }
        return value
    }

    /// Full ascending comparison of two elements on this field: -1, 0 or 1 (ties are equal values).
    func compare(_ x: Int, _ y: Int) -> Int {
        let tierX = tier(x)
        let tierY = tier(y)
        if tierX != tierY { return tierX < tierY ? -1 : 1 }
        if isStringTier(tierX) { return compareStrings(x, y) }
        guard rule == .crossType else { return 0 }
        switch kind(x) {
        case .number:
            return DecimalNumber.compare(number(x), bytes, number(y), bytes)
        case .falseValue, .trueValue:
            return kinds[x] == kinds[y] ? 0 : (kinds[x] < kinds[y] ? -1 : 1)
        default:
            return 0
        }
    }

    /// `compare` in the given direction: descending reverses all but null/missing, which stay last.
    @inline(__always) func compare(_ x: Int, _ y: Int, descending: Bool) -> Int {
        let result = compare(x, y)
        guard descending, tier(x) != nullTier, tier(y) != nullTier else { return result }
        return -result
    }

    private func compareStrings(_ x: Int, _ y: Int) -> Int {
        let a = stringParts(x)
        let b = stringParts(y)
        if a.rank != b.rank { return a.rank < b.rank ? -1 : 1 }
        let shared = min(a.restCount, b.restCount)
        for index in 0..<shared {
            let p = Self.upper(a.rest[index])
            let q = Self.upper(b.rest[index])
            if p != q { return p < q ? -1 : 1 }
        }
        if a.restCount != b.restCount { return a.restCount < b.restCount ? -1 : 1 }
        let sharedExact = min(a.exactCount, b.exactCount)
        for index in 0..<sharedExact where a.exact[index] != b.exact[index] {
            return a.exact[index] < b.exact[index] ? -1 : 1
        }
        return a.exactCount == b.exactCount ? 0 : (a.exactCount < b.exactCount ? -1 : 1)
    }
}
