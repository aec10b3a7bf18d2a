extension OrderBuilder {
    /// A several-key order from each key's single-field order: the last key's order, then a
    /// stable pass by each earlier key's rank (the index of its group of equal values), from the
    /// second-to-last key to the first. Equal on every key keeps upstream order, as `refine` does,
    /// since each single-field order keeps it.
    ///
    /// Linear once the single-field orders exist, which are built once per snapshot and shared
    /// with filters, value groups and other sorts: the way when they are already built, or when
    /// the first key ties most elements (a category of four values), where `refine` would sort
    /// almost the whole list by the next key anyway.
    static func fromSingles(_ entries: [OrderEntry]) -> [UInt32] {
        guard var order = entries.last?.order else { return [] }
        for entry in entries.dropLast().reversed() {
            let (ranks, groups) = ranks(entry)
            order = stablySorted(order, by: ranks, groups: groups)
        }
        return order
    }

    /// Per element, the index of its group of equal values in `entry`'s order, and how many
    /// groups there are.
    static func ranks(_ entry: OrderEntry) -> (ranks: [UInt32], groups: Int) {
        let count = entry.order.count
        var groups = 0
        let ranks = [UInt32](unsafeUninitializedCapacity: count) { buffer, initialized in
            HugePages.advise(buffer)
            for position in 0..<count {
                if position == 0 || !entry.ties[position] { groups += 1 }
                buffer[Int(entry.order[position])] = UInt32(groups - 1)
            }
            initialized = count
        }
        return (ranks, groups)
    }

    /// `order` stably sorted by each element's rank (below `groups`): an LSD radix sort of at
    /// most two passes of up to 16 bits.
    static func stablySorted(_ order: [UInt32], by ranks: [UInt32], groups: Int) -> [UInt32] {
        guard groups > 1 else { return order }
        let bits = UInt32.bitWidth - UInt32(groups - 1).leadingZeroBitCount
        let passes = (bits + 15) / 16
        let digitBits = (bits + passes - 1) / passes
        let mask = (1 << digitBits) - 1
        var current = order
        for pass in 0..<passes {
            let shift = pass * digitBits
            var offsets = [Int](repeating: 0, count: mask + 2)
            for element in current { offsets[(Int(ranks[Int(element)]) >> shift) & mask + 1] += 1 }
            for digit in 0...mask { offsets[digit + 1] += offsets[digit] }
            current = [UInt32](unsafeUninitializedCapacity: current.count) { buffer, initialized in
                HugePages.advise(buffer)
                for element in current {
                    let digit = (Int(ranks[Int(element)]) >> shift) & mask
                    buffer[offsets[digit]] = element
                    offsets[digit] += 1
                }
                initialized = current.count
            }
        }
        return current
    }
}
