extension SnapshotIndexes {
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
