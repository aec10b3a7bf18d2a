/// Builds sort orders from the list's bytes (docs/API.md, "Sorting").
enum OrderBuilder {
    /// What sorting by the `sectionKey` also yields: elements per title, in title order, with
    /// `#` (last) holding `#` strings, non-strings and null/missing.
    struct Titles: Sendable {
        var titles: [String]
        var counts: [Int]
    }

    /// The list sorted by one field.
    static func single(
        list: ItemList, field: FieldPath, rule: FieldColumn.Rule, descending: Bool, firstMemberWins: Bool = false
    ) -> (entry: OrderEntry, titles: Titles?) {
        let count = list.count
        return list.bytes.withUnsafeBufferPointer { bytes in
            let column = FieldColumn(
                list: list, bytes: bytes, field: field, rule: rule, elements: nil, firstMemberWins: firstMemberWins)
            var ties = BitVector(count: count)
            let order = withScratch(count) { scratch in
                [UInt32](unsafeUninitializedCapacity: count) { buffer, initialized in
                    HugePages.advise(buffer)
                    for index in 0..<count { buffer[index] = UInt32(index) }
                    initialized = count
                    let sorter = scratch.sorter(column: column, descending: descending, order: buffer)
                    sorter.sort(0..<count, ties: &ties)
                }
            }
            var tierCounts = [Int](repeating: 0, count: Int(column.nullTier) + 1)
            for element in 0..<count { tierCounts[Int(column.tier(element))] += 1 }
            let entry = OrderEntry(order: order, ties: ties, tierCounts: tierCounts)
            return (entry, rule == .sectionKey ? titles(of: column, count: count) : nil)
        }
    }

    /// Sorts each group of ties in `base` by the further keys, level by level, reading each further
    /// field only for elements still tied.
    static func refine(
        list: ItemList, base: OrderEntry, keys: [(key: SortKey, rule: FieldColumn.Rule)], firstMemberWins: Bool = false
    ) -> [UInt32] {
        var order = base.order
        var groups = base.tieGroups(in: 0..<order.count)
        let count = list.count
        list.bytes.withUnsafeBufferPointer { bytes in
            for (key, rule) in keys {
                if groups.isEmpty { break }
                var elements: [UInt32] = []
                for group in groups { elements.append(contentsOf: order[group]) }
                let column = FieldColumn(
                    list: list, bytes: bytes, field: key.field, rule: rule, elements: elements,
                    firstMemberWins: firstMemberWins)
                var ties = BitVector(count: count)
                withScratch(count) { scratch in
                    order.withUnsafeMutableBufferPointer { buffer in
                        let sorter = scratch.sorter(column: column, descending: key.descending, order: buffer)
                        for group in groups { sorter.sort(group, ties: &ties) }
                    }
                }
                let level = OrderEntry(order: [], ties: ties, tierCounts: [])
                groups = groups.flatMap { level.tieGroups(in: $0) }
            }
        }
        return order
    }

    /// A sorter's working memory for `count` elements: 37 bytes an element, freed after the sort.
    private struct Scratch {
        let keys: UnsafeMutableBufferPointer<UInt64>
        let spareKeys: UnsafeMutableBufferPointer<UInt64>
        let spareOrder: UnsafeMutableBufferPointer<UInt32>
        let early: UnsafeMutableBufferPointer<UInt64>
        let depths: UnsafeMutableBufferPointer<UInt8>
        let tails: UnsafeMutableBufferPointer<UInt64>

        func sorter(column: FieldColumn, descending: Bool, order: UnsafeMutableBufferPointer<UInt32>) -> Sorter {
            Sorter(
                column: column, descending: descending, order: order, keys: keys, spareOrder: spareOrder,
                spareKeys: spareKeys, early: early, depths: depths, tails: tails)
        }
    }

    private static func withScratch<Result>(_ count: Int, _ body: (Scratch) -> Result) -> Result {
        let size = max(count, 1)
        let scratch = Scratch(
            keys: HugePages.allocate(UInt64.self, capacity: size),
            spareKeys: HugePages.allocate(UInt64.self, capacity: size),
            spareOrder: HugePages.allocate(UInt32.self, capacity: size),
            early: HugePages.allocate(UInt64.self, capacity: size * Sorter.earlyChunks),
            depths: HugePages.allocate(UInt8.self, capacity: size),
            tails: HugePages.allocate(UInt64.self, capacity: size))
        defer {
            scratch.keys.deallocate()
            scratch.spareKeys.deallocate()
            scratch.spareOrder.deallocate()
            scratch.early.deallocate()
            scratch.depths.deallocate()
            scratch.tails.deallocate()
        }
        return body(scratch)
    }

    /// The titles alone: one read of the field, no sort.
    static func titles(list: ItemList, field: FieldPath, firstMemberWins: Bool = false) -> Titles {
        list.bytes.withUnsafeBufferPointer { bytes in
            titles(
                of: FieldColumn(
                    list: list, bytes: bytes, field: field, rule: .sectionKey, elements: nil,
                    firstMemberWins: firstMemberWins),
                count: list.count)
        }
    }

    private static func titles(of column: FieldColumn, count: Int) -> Titles {
        var perRank = [Int](repeating: 0, count: Int(column.hashRank) + 1)
        for element in 0..<count {
            if column.tier(element) == 0 {
                perRank[Int(column.stringParts(element).rank)] += 1
            } else {
                perRank[Int(column.hashRank)] += 1
            }
        }
        var result = Titles(titles: [], counts: [])
        for (rank, elements) in perRank.enumerated() where elements > 0 {
            let title: String
            if rank < 26 {
                title = String(UnicodeScalar(UInt8(0x41 + rank)))
            } else if rank == Int(column.hashRank) {
                title = "#"
            } else {
                title = FoldedKey.displayTitle(otherTitle: column.otherTitles[rank - 26])
            }
            result.titles.append(title)
            result.counts.append(elements)
        }
        return result
    }
}
