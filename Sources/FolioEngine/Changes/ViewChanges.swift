/// How a view of a list changed between two snapshots, as the JSON Patch (RFC 6902) of a
/// `since` answer (docs/API.md, "Changes between snapshots").
///
/// Applied in order to the old view's items, `operations` give the new view's. They are
/// minimal: with R ids only in the old view, A only in the new one, C common ids whose items
/// the request writes differently (`ItemForm`), and M the common ids outside one longest run
/// that keeps its order in both views, there are exactly R removes, A adds, C replaces and M
/// moves. Their order makes each cheap to apply: removes from the back (so no index shifts),
/// then the moves, then adds and replaces from the front, each at the item's final index.
///
/// Built from the two views and each snapshot's `ItemIDs`, comparing item bytes, never
/// decoding an item. Two views in step cost one pass over both (plus an id lookup where they
/// part); `PatchWriter` then copies the added and replaced items' bytes.
public struct ViewChanges: Sendable {
    public enum Operation: Sendable, Hashable {
        /// Removes the item at this index.
        case remove(at: Int)
        /// Removes the item at `from`, then inserts it at `to` (an index of the shorter array).
        case move(from: Int, to: Int)
        /// Inserts the new view's item at this position, which is its index in the new view.
        case add(at: Int)
        /// Replaces the item at this index by the new view's item at that position.
        case replace(at: Int)
    }

    public let operations: [Operation]
    /// Items in the old view (`changes.previousCount`).
    public let previousCount: Int
    /// Items in the new view (`changes.count`).
    public let count: Int
    public let removeCount: Int
    public let addCount: Int
    public let replaceCount: Int
    public let moveCount: Int
    /// Where added and replaced items' values come from.
    let view: ListView
    let form: ItemForm
    /// The old view and both lists' ids: where a removed item's id is read, and whether the new
    /// list still holds it (OData's `@removed` reasons).
    let sides: Sides

    struct Sides: Sendable {
        let old: ListView
        let oldIDs: ItemIDs
        let newIDs: ItemIDs
    }

    /// The changes from `old` (a view of the list `oldIDs` was read from) to `new`. Throws
    /// `ids-not-unique` when either list has no ids (docs/API.md, "Changes between snapshots"),
    /// whichever the token. The two views may be the same one (no changes).
    public init(
        from old: ListView, ids oldIDs: ItemIDs, to new: ListView, ids newIDs: ItemIDs, form: ItemForm = .whole
    ) throws(FolioError) {
        precondition(old.list.count == oldIDs.count && new.list.count == newIDs.count, "ids of another list")
        try oldIDs.requireUnique()
        try newIDs.requireUnique()
        previousCount = old.count
        count = new.count
        view = new
        self.form = form
        sides = Sides(old: old, oldIDs: oldIDs, newIDs: newIDs)
        guard !old.isSame(as: new) else {
            (operations, removeCount, addCount, replaceCount, moveCount) = ([], 0, 0, 0, 0)
            return
        }
        let pairing = Pairing(old: old, oldIDs: oldIDs, new: new, newIDs: newIDs, form: form)
        var patch: [Operation] = []
        removeCount = old.count - pairing.commonCount
        addCount = new.count - pairing.commonCount
        replaceCount = pairing.changedCount
        patch.reserveCapacity(removeCount + addCount + replaceCount)
        // Removes from the back: each index is still the item's index in the old view.
        var position = old.count - 1
        while position >= 0 {
            if !pairing.matched[position] { patch.append(.remove(at: position)) }
            position -= 1
        }
        moveCount = Self.appendMoves(pairing, oldCount: old.count, to: &patch)
        // From the front, each at its final index: everything before it is in place.
        for position in 0..<new.count {
            if pairing.oldPositions[position] < 0 {
                patch.append(.add(at: position))
            } else if pairing.changed[position] {
                patch.append(.replace(at: position))
            }
        }
        operations = patch
    }
}

extension ListView {
    /// Whether both views are the same elements of the same storage in the same order.
    fileprivate func isSame(as other: ListView) -> Bool {
        guard window == other.window, list.count == other.list.count else { return false }
        let sameList =
            list.bytes.withUnsafeBufferPointer { a in
                other.list.bytes.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress && a.count == b.count }
            } && sameStorage(list.starts, other.list.starts)
        guard sameList else { return false }
        switch (order, other.order) {
        case (nil, nil): return true
        case (let a?, let b?): return sameStorage(a, b)
        default: return false
        }
    }
}
