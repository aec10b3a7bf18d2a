/// One field read from the elements of a list, in the form sorting needs: a kind per element,
/// where its value lies, and for strings that are not plain ASCII their folded form.
///
/// Transient: built for one sort (about 9 bytes an element plus the non-ASCII strings) and freed
/// after it. Plain ASCII strings without escapes are never copied: their folded form is their
/// bytes uppercased, which the comparisons apply on the fly. Only valid while `bytes` (the list's
/// storage) is.
final class FieldColumn {
    /// How values of different types are ordered (docs/API.md, "Sorting").
    enum Rule {
        /// Sorting by the `sectionKey`: strings, then every other value, then null/missing.
        case sectionKey
        /// Any other sort: numbers < strings < booleans < objects/arrays < null/missing.
        case crossType
    }

    enum Kind: UInt8 {
        case missing = 0
        case number, asciiString, foldedString, falseValue, trueValue, composite
    }

    /// A string that needed decoding or folding beyond ASCII uppercase.
    struct Folded {
        var exactStart: UInt32
        var exactCount: UInt32
        var exactInArena: Bool
        var restStart: UInt32
        var restCount: UInt32
        var rank: UInt32
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let rule: Rule
    let nullTier: UInt8
    let kinds: UnsafeMutableBufferPointer<UInt8>
    /// Numbers: token start and end. ASCII strings: contents start and count. Folded: index.
    let first: UnsafeMutableBufferPointer<UInt32>
    let second: UnsafeMutableBufferPointer<UInt32>
    let folded: [Folded]
    let arena: UnsafeMutableBufferPointer<UInt8>
    /// Titles of other scripts, sorted; their ranks follow the 26 letters; `#` comes last.
    let otherTitles: [[UInt8]]
    let hashRank: UInt32
    let rankBits: Int
    /// Bytes of the folded rest that fit in the first 64-bit key after tier and rank.
    let prefixBytes: Int

    /// ASCII uppercase; folded rests hold no `a`–`z`, so it is the identity on them.
    @inline(__always) static func upper(_ byte: UInt8) -> UInt8 { byte &- 0x61 < 26 ? byte &- 0x20 : byte }

    /// Reads `field` from every element in `elements` (all of them when nil); `firstMemberWins`
    /// as `FieldPath.valueStart` takes it.
    init(
        list: ItemList, bytes: UnsafeBufferPointer<UInt8>, field: FieldPath, rule: Rule, elements: [UInt32]?,
        firstMemberWins: Bool = false
    ) {
        self.bytes = bytes
        self.rule = rule
        nullTier = rule == .sectionKey ? 2 : 4
        let count = list.count
        let kinds = HugePages.allocate(UInt8.self, capacity: count)
        kinds.initialize(repeating: Kind.missing.rawValue)
        let first = HugePages.allocate(UInt32.self, capacity: count)
        first.initialize(repeating: 0)
        let second = HugePages.allocate(UInt32.self, capacity: count)
        second.initialize(repeating: 0)
        self.kinds = kinds
        self.first = first
        self.second = second

        var arenaBytes: [UInt8] = []
        var otherIDs: [[UInt8]: UInt32] = [:]
        var folded: [Folded] = []
        list.starts.withUnsafeBufferPointer { starts in
            list.ends.withUnsafeBufferPointer { ends in
                func read(_ element: Int) {
                    let range = Int(starts[element])..<Int(ends[element])
                    guard let start = field.valueStart(in: bytes, range, firstMemberWins: firstMemberWins) else {
                        return
                    }
                    switch bytes[start] {
                    case JSONScan.quote:
                        guard let (after, escaped) = JSONScan.skipString(bytes, start, range.upperBound) else { return }
                        let contents = start + 1..<after - 1
                        if !escaped, FieldColumn.isASCII(bytes, contents) {
                            kinds[element] = Kind.asciiString.rawValue
                            first[element] = UInt32(contents.lowerBound)
                            second[element] = UInt32(contents.count)
                            return
                        }
                        var entry = Folded(
                            exactStart: UInt32(contents.lowerBound), exactCount: UInt32(contents.count),
                            exactInArena: false, restStart: 0, restCount: 0, rank: 0)
                        let key: FoldedKey
                        if escaped {
                            let exact = JSONScan.unescape(bytes, contents)
                            entry.exactStart = UInt32(arenaBytes.count)
                            entry.exactCount = UInt32(exact.count)
                            entry.exactInArena = true
                            arenaBytes.append(contentsOf: exact)
                            key = exact.withUnsafeBufferPointer { FoldedKey(utf8: $0) }
                        } else {
                            key = FoldedKey(utf8: UnsafeBufferPointer(rebasing: bytes[contents]))
                        }
                        entry.restStart = UInt32(arenaBytes.count)
                        entry.restCount = UInt32(key.bytes.count - key.titleLength)
                        arenaBytes.append(contentsOf: key.rest)
                        switch key.title {
                        case .letter(let index):
                            entry.rank = UInt32(index)
                        case .hash:
                            entry.rank = UInt32.max
                        case .other:
                            let title = Array(key.titleBytes)
                            if let id = otherIDs[title] {
                                entry.rank = id
                            } else {
                                entry.rank = UInt32(26 + otherIDs.count)
                                otherIDs[title] = entry.rank
                            }
                        }
                        kinds[element] = Kind.foldedString.rawValue
                        first[element] = UInt32(folded.count)
                        folded.append(entry)
                    case UInt8(ascii: "t"):
                        kinds[element] = Kind.trueValue.rawValue
                    case UInt8(ascii: "f"):
                        kinds[element] = Kind.falseValue.rawValue
                    case UInt8(ascii: "n"):
                        break
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        kinds[element] = Kind.composite.rawValue
                    default:
                        guard let after = JSONScan.skipValue(bytes, start, range.upperBound) else { return }
                        kinds[element] = Kind.number.rawValue
                        first[element] = UInt32(start)
                        second[element] = UInt32(after)
                    }
                }
                if let elements {
                    for element in elements { read(Int(element)) }
                } else {
                    for element in 0..<count { read(element) }
                }
            }
        }

        // Ranks: letters 0–25, other titles in code point order, then `#`.
        let others = otherIDs.sorted { $0.key.lexicographicallyPrecedes($1.key) }
        var finalRank = [UInt32](repeating: 0, count: others.count)
        for (position, entry) in others.enumerated() { finalRank[Int(entry.value) - 26] = UInt32(26 + position) }
        otherTitles = others.map(\.key)
        hashRank = UInt32(26 + others.count)
        for index in folded.indices {
            let rank = folded[index].rank
            folded[index].rank = rank == .max ? hashRank : rank < 26 ? rank : finalRank[Int(rank) - 26]
        }
        self.folded = folded
        let bits = UInt64.bitWidth - UInt64(hashRank).leadingZeroBitCount
        rankBits = max(bits, 1)
        prefixBytes = (61 - rankBits) / 8
        let arena = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(arenaBytes.count, 1))
        _ = arena.initialize(from: arenaBytes)
        self.arena = arena
    }

    deinit {
        kinds.deallocate()
        first.deallocate()
        second.deallocate()
        arena.deallocate()
    }

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var index = range.lowerBound
        let end = range.upperBound
        let base = bytes.baseAddress!
        while index + 8 <= end {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            if word & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < end {
            if bytes[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }
}
