/// Sorts ranges of element indices by one field: an LSD radix sort on a 64-bit key that orders
/// like the value, then, inside runs of equal keys, more radix passes on later bytes of folded
/// strings (so a million names sharing long prefixes stay fast), then exact comparisons.
///
/// Every step is stable and exact comparisons break ties by element index, so equal values keep
/// upstream order in both directions. Marks in `ties` each position whose element equals its
/// predecessor's on this field.
struct Sorter {
    let column: FieldColumn
    let descending: Bool
    /// Permutation being sorted, and scratch of the same size.
    let order: UnsafeMutableBufferPointer<UInt32>
    let keys: UnsafeMutableBufferPointer<UInt64>
    let spareOrder: UnsafeMutableBufferPointer<UInt32>
    let spareKeys: UnsafeMutableBufferPointer<UInt64>

    /// Runs at most this long go straight to comparisons.
    static let comparisonCutoff = 48
    /// Chunk levels before a run of long equal-prefix strings falls back to comparisons.
    static let maximumDepth = 32

    /// Sorts `order[range]`, whose elements must be in upstream order.
    func sort(_ range: Range<Int>, ties: inout BitVector) {
        guard range.count > 1 else { return }
        if range.count <= Self.comparisonCutoff {
            compareSort(range, ties: &ties)
            return
        }
        for position in range { keys[position] = column.prefix(Int(order[position]), descending: descending) }
        radixSort(range)
        resolveRuns(range, depth: 0, ties: &ties)
    }

    private func resolveRuns(_ range: Range<Int>, depth: Int, ties: inout BitVector) {
        var start = range.lowerBound
        while start < range.upperBound {
            var end = start + 1
            let key = keys[start]
            while end < range.upperBound, keys[end] == key { end += 1 }
            if end - start > 1 { resolveRun(start..<end, depth: depth, ties: &ties) }
            start = end
        }
    }

    private func resolveRun(_ run: Range<Int>, depth: Int, ties: inout BitVector) {
        let tier = column.tier(Int(order[run.lowerBound]))
        if column.prefixDecides(tier) {
            for position in run.dropFirst() { ties[position] = true }
            return
        }
        if column.isStringTier(tier), run.count > Self.comparisonCutoff, depth < Self.maximumDepth,
            run.contains(where: { column.chunkDepth(Int(order[$0])) > depth })
        {
            for position in run {
                keys[position] = column.chunk(Int(order[position]), depth: depth + 1, descending: descending)
            }
            radixSort(run)
            resolveRuns(run, depth: depth + 1, ties: &ties)
            return
        }
        compareSort(run, ties: &ties)
    }

    private func compareSort(_ range: Range<Int>, ties: inout BitVector) {
        let column = column
        let descending = descending
        var slice = UnsafeMutableBufferPointer(rebasing: order[range])
        slice.sort { a, b in
            let result = column.compare(Int(a), Int(b), descending: descending)
            return result != 0 ? result < 0 : a < b
        }
        for position in range.dropFirst()
        where column.compare(Int(order[position - 1]), Int(order[position])) == 0 {
            ties[position] = true
        }
    }

    /// Stable LSD radix sort of `keys[range]` carrying `order[range]`, byte by byte, skipping
    /// bytes that are the same everywhere.
    private func radixSort(_ range: Range<Int>) {
        var counts = [Int](repeating: 0, count: 8 * 256)
        for position in range {
            let key = keys[position]
            for digit in 0..<8 { counts[digit << 8 | Int((key >> UInt64(digit * 8)) & 0xFF)] += 1 }
        }
        var sourceKeys = keys
        var sourceOrder = order
        var targetKeys = spareKeys
        var targetOrder = spareOrder
        var inSpare = false
        let total = range.count
        for digit in 0..<8 {
            let base = digit << 8
            if (0..<256).contains(where: { counts[base | $0] == total }) { continue }
            var offsets = [Int](repeating: 0, count: 256)
            var running = range.lowerBound
            for bucket in 0..<256 {
                offsets[bucket] = running
                running += counts[base | bucket]
            }
            let shift = UInt64(digit * 8)
            for position in range {
                let key = sourceKeys[position]
                let bucket = Int((key >> shift) & 0xFF)
                let target = offsets[bucket]
                offsets[bucket] = target + 1
                targetKeys[target] = key
                targetOrder[target] = sourceOrder[position]
            }
            swap(&sourceKeys, &targetKeys)
            swap(&sourceOrder, &targetOrder)
            inSpare.toggle()
        }
        if inSpare {
            for position in range {
                keys[position] = spareKeys[position]
                order[position] = spareOrder[position]
            }
        }
    }
}
