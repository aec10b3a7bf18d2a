extension SnapshotIndexes {
    /// The alphabetical index (docs/API.md, "Section index"): one section per non-empty title in
    /// title order, `#` last (holding `#` keys, keys that are not strings, and missing ones);
    /// counts add up to the list's count. Offsets are where each section starts in an order sorted
    /// by `sectionKey` first, ascending — the same positions in every such order, so `order` (which
    /// the caller guarantees is one, or nil when the upstream order is one) is not read. Empty
    /// without a `sectionKey`.
    public func alphabeticalSections(order: [UInt32]?) -> [Section] {
        guard let titles = sectionTitles() else { return [] }
        var sections: [Section] = []
        sections.reserveCapacity(titles.titles.count)
        var offset = 0
        for (title, count) in zip(titles.titles, titles.counts) {
            sections.append(Section(title: title, value: title, count: count, offset: offset))
            offset += count
        }
        return sections
    }

    /// Element indices whose `sectionKey` title is `title`, in `order` (upstream order when nil).
    public func elements(inSection title: String, order: [UInt32]?) -> [UInt32] {
        guard let sectionKey, let titles = sectionTitles(),
            let index = titles.titles.firstIndex(of: title)
        else { return [] }
        let sorted = entry(OrderID(field: sectionKey, descending: false, crossType: false)).order
        let start = titles.counts[..<index].reduce(0, +)
        let span = start..<start + titles.counts[index]
        return select([span], of: sorted, in: order)
    }

    private func sectionTitles() -> OrderBuilder.Titles? {
        guard let sectionKey else { return nil }
        if let titles = stateTitles() { return titles }
        // Building the sectionKey order records its titles.
        _ = entry(OrderID(field: sectionKey, descending: false, crossType: false))
        if let titles = stateTitles() { return titles }
        // The order was derived from the descending one, which carried no titles: read them once.
        return storeTitles(OrderBuilder.titles(list: list, field: sectionKey, firstMemberWins: membersNamedOnce))
    }

    /// The elements at positions `spans` of `sorted`, listed in `order`: a slice when `order` is
    /// `sorted` itself, otherwise a walk over `order` with a membership bit per element.
    func select(_ spans: [Range<Int>], of sorted: [UInt32], in order: [UInt32]?) -> [UInt32] {
        let total = spans.reduce(0) { $0 + $1.count }
        if total == 0 { return [] }
        if let order, sameStorage(order, sorted) {
            var result: [UInt32] = []
            result.reserveCapacity(total)
            for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) { result.append(contentsOf: sorted[span]) }
            return result
        }
        if total == sorted.count { return order ?? (0..<UInt32(sorted.count)).map { $0 } }
        var member = BitVector(count: sorted.count)
        for span in spans {
            for position in span { member[Int(sorted[position])] = true }
        }
        var result: [UInt32] = []
        result.reserveCapacity(total)
        if let order {
            for element in order where member[Int(element)] { result.append(element) }
        } else {
            for element in 0..<UInt32(sorted.count) where member[Int(element)] { result.append(element) }
        }
        return result
    }
}

extension SnapshotIndexes {
    fileprivate func stateTitles() -> OrderBuilder.Titles? { state.withLock { $0.titles } }

    fileprivate func storeTitles(_ titles: OrderBuilder.Titles) -> OrderBuilder.Titles {
        state.withLock { state in
            if let stored = state.titles { return stored }
            state.store(titles)
            return titles
        }
    }
}

extension SnapshotIndexes {
    /// The alphabetical index of only the elements in `kept` (a filtered list, docs/API.md, "Section index"): counts
    /// of those elements, offsets in their order by `sectionKey`, empty sections left out.
    public func alphabeticalSections(narrowedTo kept: [UInt32]) -> [Section] {
        guard let sectionKey else { return [] }
        let sorted = entry(OrderID(field: sectionKey, descending: false, crossType: false)).order
        return Self.narrowed(alphabeticalSections(order: nil), sorted: sorted, to: kept, count: list.count)
    }

    /// `groupBy=FIELD` over only the elements in `kept`: counts of those elements, offsets in
    /// their order by the field, empty sections left out.
    public func valueSections(field: FieldPath, narrowedTo kept: [UInt32]) -> [Section] {
        let sorted = entry(OrderID(field: field, descending: false, crossType: true))
        return Self.narrowed(
            valueSections(field: field, order: sorted.order), sorted: sorted.order, to: kept,
            count: list.count)
    }

    /// `sections`, each a run of positions of `sorted`, counting only the elements in `kept`;
    /// offsets add up in the same order.
    static func narrowed(_ sections: [Section], sorted: [UInt32], to kept: [UInt32], count: Int) -> [Section] {
        var member = BitVector(count: count)
        for element in kept { member[Int(element)] = true }
        var result: [Section] = []
        var offset = 0
        for section in sections {
            var inSection = 0
            for position in section.offset..<section.offset + section.count where member[Int(sorted[position])] {
                inSection += 1
            }
            guard inSection > 0 else { continue }
            result.append(Section(title: section.title, value: section.value, count: inSection, offset: offset))
            offset += inSection
        }
        return result
    }
}
