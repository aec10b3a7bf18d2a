#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ViewChanges {
    /// Which old item each new item of the view is (by id), and whether the request writes it
    /// differently.
    ///
    /// The two views are walked in step, which is how most changes look: while the items at the
    /// two cursors have the same id hash and the same bytes they pair with no lookup at all.
    /// Where they part, the ids are looked up in the other snapshot's table: an old item that
    /// left the view is skipped, a new one that entered it is added, and a displaced item is
    /// paired where it is; the old cursor jumps ahead only when that costs fewer lookups than
    /// the item at it would. Which items pair never depends on the walk (ids are unique), only
    /// how many lookups it takes.
    struct Pairing {
        /// For each new position: the old position of the same id, or -1 for an added item.
        private(set) var oldPositions: [Int32]
        /// New positions whose common item is written differently (a `replace`).
        private(set) var changed: BitVector
        /// Old positions that have a partner; the others are removed.
        private(set) var matched: BitVector
        private(set) var commonCount = 0
        private(set) var changedCount = 0

        init(old: ListView, oldIDs: ItemIDs, new: ListView, newIDs: ItemIDs, form: ItemForm) {
            oldPositions = [Int32](repeating: -1, count: new.count)
            changed = BitVector(count: new.count)
            matched = BitVector(count: old.count)
            var oldPlaces = ViewPositions(old)
            var newPlaces = ViewPositions(new)
            var scratch: (left: [UInt8], right: [UInt8]) = ([], [])
            let oldList = old.list
            let newList = new.list
            oldList.bytes.withUnsafeBufferPointer { oldBytes in
                newList.bytes.withUnsafeBufferPointer { newBytes in
                    oldIDs.hashes.withUnsafeBufferPointer { oldHashes in
                        newIDs.hashes.withUnsafeBufferPointer { newHashes in
                            func sameBytes(_ oldElement: Int, _ newElement: Int) -> Bool {
                                let a = oldList.range(of: oldElement)
                                let b = newList.range(of: newElement)
                                return a.count == b.count
                                    && memcmp(
                                        oldBytes.baseAddress! + a.lowerBound, newBytes.baseAddress! + b.lowerBound,
                                        a.count) == 0
                            }
                            func pair(_ position: Int, _ oldPosition: Int, knownSame: Bool? = nil) {
                                let oldElement = old.elementIndex(at: oldPosition)
                                let newElement = new.elementIndex(at: position)
                                oldPositions[position] = Int32(oldPosition)
                                matched[oldPosition] = true
                                commonCount += 1
                                guard !(knownSame ?? sameBytes(oldElement, newElement)) else { return }
                                if form.differs(
                                    oldBytes, oldList.range(of: oldElement), newBytes, newList.range(of: newElement),
                                    scratch: &scratch)
                                {
                                    changed[position] = true
                                    changedCount += 1
                                }
                            }
                            func sameID(_ oldElement: Int, _ newElement: Int) -> Bool {
                                guard let a = oldIDs.id(of: oldElement, oldBytes),
                                    let b = newIDs.id(of: newElement, newBytes)
                                else { return false }
                                return IDValue.equal(a, oldBytes, b, newBytes)
                            }
                            /// Where the new element's id is in the old view, or nil.
                            func oldPosition(of newElement: Int) -> Int? {
                                oldIDs.element(matching: newElement, of: newIDs, oldBytes, newBytes)
                                    .flatMap { oldPlaces.position(of: $0) }
                            }
                            /// Where the old element's id is in the new view, or nil.
                            func newPosition(of oldElement: Int) -> Int? {
                                newIDs.element(matching: oldElement, of: oldIDs, newBytes, oldBytes)
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
                                if oldHashes[oldElement] == newHashes[newElement] {
                                    let same = sameBytes(oldElement, newElement)
                                    if same || sameID(oldElement, newElement) {
                                        pair(position, cursor, knownSame: same)
                                        position += 1
                                        cursor += 1
                                        continue
                                    }
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
                                // Resume the walk after `found` when the old items skipped are
                                // fewer than the new ones the item at the cursor is ahead by.
                                if found > cursor, found - cursor <= later - position { cursor = found + 1 }
                                position += 1
                            }
                        }
                    }
                }
            }
        }
    }

    /// Where an element stands in a view, for items found by id rather than in step. A view in
    /// upstream order answers by arithmetic; a sorted or filtered one builds its inverse on the
    /// first question (4 bytes an element of the list, for this diff only).
    struct ViewPositions {
        let view: ListView
        private var positions: [Int32]?

        init(_ view: ListView) { self.view = view }

        mutating func position(of element: Int) -> Int? {
            guard let order = view.order else {
                return view.window.contains(element) ? element - view.window.lowerBound : nil
            }
            if positions == nil {
                var inverse = [Int32](repeating: -1, count: view.list.count)
                for position in 0..<view.count {
                    inverse[Int(order[view.window.lowerBound + position])] = Int32(position)
                }
                positions = inverse
            }
            let position = positions![element]
            return position >= 0 ? Int(position) : nil
        }
    }
}
