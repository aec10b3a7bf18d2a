/// A list sorted by one field, with what is needed to derive more from it without reading the
/// field again: the opposite direction, value groups, and equal ranges for filters.
struct OrderEntry: Sendable {
    let order: [UInt32]
    /// Position `p` is set when `order[p]` equals `order[p - 1]` on the field.
    let ties: BitVector
    /// Elements per tier, in the rule's ascending tier order (null/missing last).
    let tierCounts: [Int]

    var nullCount: Int { tierCounts.last ?? 0 }

    var retainedBytes: Int { order.capacity * 4 + ties.retainedBytes + tierCounts.capacity * 8 }

    /// The same field in the other direction: groups of equal values in reverse, each keeping its
    /// upstream order; null/missing stay last.
    func reversed() -> OrderEntry {
        let count = order.count
        let nonNull = count - nullCount
        var reversedTies = BitVector(count: count)
        let reversedOrder = [UInt32](unsafeUninitializedCapacity: count) { buffer, initialized in
            HugePages.advise(buffer)
            var write = 0
            var groupEnd = nonNull
            var position = nonNull - 1
            while position >= 0 {
                if !ties[position] {
                    for source in position..<groupEnd {
                        buffer[write] = order[source]
                        if source > position { reversedTies[write] = true }
                        write += 1
                    }
                    groupEnd = position
                }
                position -= 1
            }
            for source in nonNull..<count {
                buffer[write] = order[source]
                if source > nonNull, ties[source] { reversedTies[write] = true }
                write += 1
            }
            initialized = count
        }
        return OrderEntry(order: reversedOrder, ties: reversedTies, tierCounts: tierCounts)
    }

    /// Runs of equal values (at least two long) within `range`.
    func tieGroups(in range: Range<Int>) -> [Range<Int>] {
        var groups: [Range<Int>] = []
        var start = range.lowerBound
        while start < range.upperBound {
            var end = start + 1
            while end < range.upperBound, ties[end] { end += 1 }
            if end - start > 1 { groups.append(start..<end) }
            start = end
        }
        return groups
    }
}
