/// Sorts ranges of element indices by one field: an LSD radix sort on a 64-bit key that orders
/// like the value, then, inside runs of equal keys, more radix passes on later bytes of folded
/// strings (so a million names sharing long prefixes stay fast), then exact comparisons.
///
/// The first pass reads elements in upstream order (sequential memory) and also records the next
/// `Sorter.earlyChunks` chunks of each string and how many chunks it needs; deeper levels read
/// those instead of the list, whose bytes they would otherwise visit in random order.
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
    /// Per element: chunks 1...earlyChunks (element-major), and chunk depth needed (capped at 255;
    /// for numbers, 1 when the first key does not hold the whole value).
    let early: UnsafeMutableBufferPointer<UInt64>
    let depths: UnsafeMutableBufferPointer<UInt8>
    /// Per element: `column.caseTail`, which orders plain ASCII strings of one folded key exactly.
    let tails: UnsafeMutableBufferPointer<UInt64>

    static let earlyChunks = 2

    /// Ranges at most this long are sorted by comparisons; runs this short order their next chunk
    /// by insertion instead of a radix pass.
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
        let early = early
        let depths = depths
        for position in range {
            let element = Int(order[position])
            var exact = true
            keys[position] = column.prefix(element, descending: descending, exact: &exact)
            if column.isStringTier(column.tier(element)) {
                let depth = column.chunkDepth(element)
                depths[element] = UInt8(min(depth, 255))
                for level in 0..<min(depth, Self.earlyChunks) {
                    early[element * Self.earlyChunks + level] = column.chunk(
                        element, depth: level + 1, descending: descending)
                }
                tails[element] = column.caseTail(element)
            } else {
                // Other tiers: 1 marks a number whose key is not its whole value.
                depths[element] = exact ? 0 : 1
            }
        }
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
        if column.prefixDecides(tier)
            || (!column.isStringTier(tier) && run.allSatisfy { depths[Int(order[$0])] == 0 })
        {
            for position in run.dropFirst() { ties[position] = true }
            return
        }
        if column.isStringTier(tier), depth < Self.maximumDepth,
            run.contains(where: { Int(depths[Int(order[$0])]) > depth })
        {
            for position in run {
                let element = Int(order[position])
                if depth < Self.earlyChunks {
                    // Chunks past a string's end are zero, which `early` may not hold: it was not written.
                    keys[position] =
                        Int(depths[element]) > depth
                        ? early[element * Self.earlyChunks + depth] : (descending ? ~0 : 0)
                } else {
                    keys[position] = column.chunk(element, depth: depth + 1, descending: descending)
                }
            }
            if run.count > Self.comparisonCutoff { radixSort(run) } else { insertionSort(run) }
            resolveRuns(run, depth: depth + 1, ties: &ties)
            return
        }
        if column.isStringTier(tier), sortByCaseTails(run, ties: &ties) { return }
        compareSort(run, ties: &ties)
    }

    private func compareSort(_ range: Range<Int>, ties: inout BitVector) {
        if range.count == 2 {
            // The common case (a duplicate pair): one comparison both orders and marks the tie.
            let (a, b) = (order[range.lowerBound], order[range.lowerBound + 1])
            let result = column.compare(Int(a), Int(b), descending: descending)
            if result > 0 || (result == 0 && a > b) { order.swapAt(range.lowerBound, range.lowerBound + 1) }
            if result == 0 { ties[range.lowerBound + 1] = true }
            return
        }
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

    /// A run of one folded key, all plain ASCII of one length: its exact order is its case pattern,
    /// so it sorts on `tails` without reading the strings. False when the run does not qualify.
    /// (Unescaped JSON strings hold no NUL, so one folded key already implies one length; the
    /// length check only guards against input the indexer would have rejected.)
    private func sortByCaseTails(_ run: Range<Int>, ties: inout BitVector) -> Bool {
        let first = tails[Int(order[run.lowerBound])]
        guard first != FieldColumn.noCaseTail else { return false }
        for position in run {
            let tail = tails[Int(order[position])]
            guard tail != FieldColumn.noCaseTail, tail >> 56 == first >> 56 else { return false }
            keys[position] = descending ? ~tail : tail
        }
        if run.count > Self.comparisonCutoff { radixSort(run) } else { insertionSort(run) }
        for position in run.dropFirst() where keys[position] == keys[position - 1] { ties[position] = true }
        return true
    }

    /// Stable insertion sort of a short run by `keys`, carrying `order`.
    private func insertionSort(_ range: Range<Int>) {
        for position in range.dropFirst() {
            let key = keys[position]
            let element = order[position]
            var target = position
            while target > range.lowerBound, keys[target - 1] > key {
                keys[target] = keys[target - 1]
                order[target] = order[target - 1]
                target -= 1
            }
            keys[target] = key
            order[target] = element
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
