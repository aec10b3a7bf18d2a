#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One `searchable` field of every element, folded once per snapshot (docs/API.md, "Requests", `?q=`): the
/// folded UTF-8 of each string value laid end to end, with each element's start. Values that
/// are not strings (missing, null, numbers, …) are empty and never match.
final class SearchColumn: Sendable {
    /// The folded values, end to end.
    let arena: [UInt8]
    /// Element `i`'s folded value is `arena[offsets[i]..<offsets[i + 1]]`.
    let offsets: [UInt32]

    init(list: ItemList, field: FieldPath, firstMemberWins: Bool = false) {
        var arena: [UInt8] = []
        var offsets: [UInt32] = [0]
        offsets.reserveCapacity(list.count + 1)
        list.bytes.withUnsafeBufferPointer { bytes in
            for element in 0..<list.count {
                if element == Self.sampled {
                    // Room for the rest as the first values need it: growing a large arena by
                    // doubling copies it and touches twice the pages.
                    arena.reserveCapacity(arena.count / Self.sampled * list.count * 9 / 8 + 64)
                }
                if let start = field.valueStart(in: bytes, list.range(of: element), firstMemberWins: firstMemberWins),
                    bytes[start] == JSONScan.quote,
                    let (after, escaped) = JSONScan.skipString(bytes, start, bytes.count)
                {
                    let inner = start + 1..<after - 1
                    if escaped {
                        let decoded = JSONScan.unescape(bytes, inner)
                        arena += decoded.withUnsafeBufferPointer { FoldedKey(utf8: $0).bytes }
                    } else {
                        let raw = UnsafeBufferPointer(rebasing: bytes[inner])
                        if !FoldedKey.appendLatinFold(raw, to: &arena) { arena += FoldedKey(utf8: raw).bytes }
                    }
                }
                offsets.append(UInt32(arena.count))
            }
        }
        self.arena = arena
        self.offsets = offsets
    }

    var retainedBytes: Int { arena.capacity + offsets.capacity * 4 }

    /// The values folded before the arena is sized for the rest.
    static let sampled = 4096

    /// Marks in `found` every element whose folded value contains `needle` (folded UTF-8,
    /// not empty) character by character (docs/API.md, "Requests"): UTF-8 is self-synchronizing, so a byte
    /// match starts and ends on scalars, and it counts only where both ends are also
    /// character (grapheme) boundaries, so `И` does not find `Й` (`И` and a combining breve
    /// after folding) and a lone mark finds nothing.
    func mark(containing needle: [UInt8], in found: inout BitVector) {
        arena.withUnsafeBufferPointer { arena in
            needle.withUnsafeBufferPointer { needle in
                offsets.withUnsafeBufferPointer { offsets in
                    guard let base = arena.baseAddress, let wanted = needle.baseAddress else { return }
                    Self.mark(wanted, needle.count, in: base, arena.count, offsets, &found)
                }
            }
        }
    }

    /// `mark` over raw memory: `memchr` (vectorized) finds each place the needle's first byte
    /// occurs in the whole arena, and the element it lies in is found by walking `offsets`
    /// forward (the places only grow); a match must end inside its element, on character
    /// boundaries. After a match, or in an element marked already, the search goes on at the
    /// next element.
    private static func mark(
        _ wanted: UnsafePointer<UInt8>, _ count: Int, in base: UnsafePointer<UInt8>, _ arenaCount: Int,
        _ offsets: UnsafeBufferPointer<UInt32>, _ found: inout BitVector
    ) {
        let first = Int32(wanted[0])
        let rest = count - 1
        let elements = offsets.count - 1
        var element = 0
        var index = 0
        var characters: String? = nil
        var charactersOf = -1
        while index < arenaCount {
            guard let hit = memchr(base + index, first, arenaCount - index) else { return }
            let position = UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - base
            while element < elements, Int(offsets[element + 1]) <= position { element += 1 }
            guard element < elements else { return }
            let start = Int(offsets[element])
            let stop = Int(offsets[element + 1])
            if found[element] || position + count > stop {
                // Nothing more to find in this element.
                index = stop
                element += 1
                continue
            }
            if charactersOf != element {
                characters = nil
                charactersOf = element
            }
            if rest == 0 || memoryEqual(wanted + 1, base + position + 1, rest),
                isBoundary(base, position, in: start..<stop, characters: &characters),
                isBoundary(base, position + count, in: start..<stop, characters: &characters)
            {
                found[element] = true
                index = stop
                element += 1
            } else {
                index = position + 1
            }
        }
    }

    /// Whether `position` (the start of a scalar, or the end of the value) in the folded value
    /// `value` lies between two characters, not inside one. ASCII after it starts a character
    /// (CR LF and prepended marks aside, which folded names do not hold); otherwise the whole
    /// value is read as characters, since some clusters (flags, emoji joined by ZWJ, Indic
    /// conjuncts) depend on more than the two scalars around the position. `characters` is that
    /// value as a `String`, decoded at the first check that needs it and kept for the element's
    /// other checks.
    static func isBoundary(
        _ base: UnsafePointer<UInt8>, _ position: Int, in value: Range<Int>, characters: inout String?
    ) -> Bool {
        guard position > value.lowerBound, position < value.upperBound, base[position] >= 0x80 else { return true }
        let text: String
        if let decoded = characters {
            text = decoded
        } else {
            text = String(
                decoding: UnsafeBufferPointer(start: base + value.lowerBound, count: value.count), as: UTF8.self)
            characters = text
        }
        let index = text.utf8.index(text.utf8.startIndex, offsetBy: position - value.lowerBound)
        return index.samePosition(in: text) != nil
    }
}
