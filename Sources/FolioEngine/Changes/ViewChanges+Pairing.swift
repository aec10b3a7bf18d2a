extension ViewChanges {
    /// Which old item each new item of the view is (by id), and whether the request writes it
    /// differently.
    ///
    /// The two views are walked in step, which is how most changes look: while the items at the
    /// two cursors have the same id hash they pair with no lookup at all. Where they part, the
    /// ids are looked up in the other snapshot's table: an old item that left the view is
    /// skipped, a new one that entered it is added, and of two displaced items the one further
    /// from its place is left to a lookup, so the walk stays in step with about two lookups per
    /// change. Which items pair never depends on the walk (ids are unique), only how many
    /// lookups it takes.
    ///
    /// The walk reads only hashes; the items' bytes are compared afterwards in the lists' own
    /// order (`compare`), so a sorted view costs a pass over memory, not a cache miss an item.
    /// Equal bytes prove equal ids; a pair whose bytes differ has its ids compared, and should
    /// two ids share a hash (about once in four billion pairs) the walk runs again, comparing
    /// ids at every step.
    struct Pairing {
        /// For each new position: the old position of the same id, or -1 for an added item.
        var oldPositions: [Int32]
        /// New positions whose common item is written differently (a `replace`).
        var changed: BitVector
        /// Old positions that have a partner; the others are removed.
        private(set) var matched: BitVector
        private(set) var commonCount = 0
        var changedCount = 0

        init(old: ListView, oldIDs: ItemIDs, new: ListView, newIDs: ItemIDs, form: ItemForm) {
            let sides = Sides(old: old, oldIDs: oldIDs, new: new, newIDs: newIDs)
            var newPlaces = ViewPositions(new)
            var pairing = Pairing(walking: sides, newPlaces: &newPlaces, exact: false)
            if !pairing.compare(sides, form: form, newPlaces: &newPlaces, exact: false) {
                pairing = Pairing(walking: sides, newPlaces: &newPlaces, exact: true)
                _ = pairing.compare(sides, form: form, newPlaces: &newPlaces, exact: true)
            }
            self = pairing
        }

        /// The two views and their ids.
        struct Sides {
            let old: ListView
            let oldIDs: ItemIDs
            let new: ListView
            let newIDs: ItemIDs

            /// Whether the two elements' ids are the same value.
            func sameID(
                _ oldElement: Int, _ oldBytes: UnsafeBufferPointer<UInt8>, _ newElement: Int,
                _ newBytes: UnsafeBufferPointer<UInt8>
            ) -> Bool {
                guard let a = oldIDs.id(of: oldElement, oldBytes), let b = newIDs.id(of: newElement, newBytes) else {
                    return false
                }
                return IDValue.equal(a, oldBytes, b, newBytes)
            }
        }

        /// Pairs the views' items; `exact` compares ids wherever hashes agree, otherwise equal
        /// hashes in step are trusted until `compare`.
        private init(walking sides: Sides, newPlaces: inout ViewPositions, exact: Bool) {
            let (old, new) = (sides.old, sides.new)
            oldPositions = [Int32](repeating: -1, count: new.count)
            changed = BitVector(count: new.count)
            matched = BitVector(count: old.count)
            var oldPlaces = ViewPositions(old)
            old.list.bytes.withUnsafeBufferPointer { oldBytes in
                new.list.bytes.withUnsafeBufferPointer { newBytes in
                    sides.oldIDs.hashes.withUnsafeBufferPointer { oldHashes in
                        sides.newIDs.hashes.withUnsafeBufferPointer { newHashes in
                            func pair(_ position: Int, _ oldPosition: Int) {
                                oldPositions[position] = Int32(oldPosition)
                                matched[oldPosition] = true
                                commonCount += 1
                            }
                            /// Where the new element's id is in the old view, or nil.
                            func oldPosition(of newElement: Int) -> Int? {
                                sides.oldIDs.element(matching: newElement, of: sides.newIDs, oldBytes, newBytes)
                                    .flatMap { oldPlaces.position(of: $0) }
                            }
                            /// Where the old element's id is in the new view, or nil.
                            func newPosition(of oldElement: Int) -> Int? {
                                sides.newIDs.element(matching: oldElement, of: sides.oldIDs, newBytes, oldBytes)
                                    .flatMap { newPlaces.position(of: $0) }
                            }

                            var position = 0
                            var cursor = 0
                            // The new position of the old item at `cursor`, once looked up.
                            var lookedUp = (cursor: -1, position: Int?.none)
                            while position < new.count {
                                while cursor < old.count, matched[cursor] { cursor += 1 }
                                let newElement = new.elementIndex(at: position)
                                guard cursor < old.count else {
                                    if let found = oldPosition(of: newElement) { pair(position, found) }
                                    position += 1
                                    continue
                                }
                                let oldElement = old.elementIndex(at: cursor)
                                if oldHashes[oldElement] == newHashes[newElement],
                                    !exact
                                        || Self.sameBytes(
                                            old.list, oldBytes, oldElement, new.list, newBytes, newElement)
                                        || sides.sameID(oldElement, oldBytes, newElement, newBytes)
                                {
                                    pair(position, cursor)
                                    position += 1
                                    cursor += 1
                                    continue
                                }
                                if lookedUp.cursor != cursor { lookedUp = (cursor, newPosition(of: oldElement)) }
                                guard let later = lookedUp.position else {
                                    cursor += 1  // the old item left the view
                                    continue
                                }
                                guard let found = oldPosition(of: newElement) else {
                                    position += 1  // the new item entered the view
                                    continue
                                }
                                pair(position, found)
                                // Both items are out of step: leave the one that is further
                                // from its place to a lookup. Skipping one old item at a time
                                // (never jumping to `found`) keeps a far move from dragging
                                // the whole walk into lookups.
                                if found > cursor, later - position > found - cursor { cursor += 1 }
                                position += 1
                            }
                        }
                    }
                }
            }
        }
    }
}
