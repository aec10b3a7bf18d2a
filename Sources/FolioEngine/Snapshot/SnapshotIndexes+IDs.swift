extension SnapshotIndexes {
    /// The ids of the list's items at `field` (a route's `idField`; docs/API.md, "Changes between
    /// snapshots"), read on first use and kept for the snapshot's life: every `since` answer and
    /// every event of a watched list diffs against them. Counted in `retainedBytes` (about 10
    /// bytes an item) and never shed: reading them again costs what the first reading did.
    ///
    /// Read once: a second caller waits for the first one's reading rather than read them too.
    public func itemIDs(_ field: FieldPath) -> ItemIDs {
        if let kept = state.withLock({ $0.ids[field] }) { return kept }
        return readingIDs.withLock { _ in
            if let kept = state.withLock({ $0.ids[field] }) { return kept }
            let ids = ItemIDs(list: list, field: field)
            state.withLock { $0.store(ids, for: field) }
            return ids
        }
    }

    /// Whether `field`'s ids have been read (tests, and whether a recount is due).
    public func hasItemIDs(_ field: FieldPath) -> Bool {
        state.withLock { $0.ids[field] != nil }
    }

    /// The first item (0-based, upstream order) that is not an object with a string or number at `field`, nil when
    /// every item has one: whether the dialects that name items by id can serve this list (docs/API.md, "More
    /// dialects"). Read once per field and kept for the snapshot's life.
    public func firstItemWithoutID(_ field: FieldPath) -> Int? {
        if let known = idChecks.withLock({ $0[field] }) { return known }
        let first = list.bytes.withUnsafeBufferPointer { bytes in
            (0..<list.count).first { IDValue(bytes, list.range(of: $0), field: field) == nil }
        }
        idChecks.withLock { $0[field] = first }
        return first
    }
}
