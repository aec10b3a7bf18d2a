extension ViewChanges {
    /// Appends the moves that put the common items, left in old order by the removes, into new
    /// order, and returns how many: one for each common item outside a longest run that keeps
    /// its order in both views (`IncreasingRun`), which no patch can do with fewer.
    ///
    /// Each moved item goes right after its predecessor in the new order (or to the front), so
    /// once all have moved the array is the new order. To give each move its indexes without
    /// replaying the array, every place an item can be is a slot in one fixed order: the slots of
    /// the items that stay, in old order; the old slot of each item that moves, among them; and
    /// its new slot right after the item it will follow (after the new slots of the moved items
    /// before it). A move frees one slot and fills the other; an item's index is the number of
    /// filled slots before it (`RankTree`).
    static func appendMoves(_ pairing: Pairing, oldCount: Int, to operations: inout [Operation]) -> Int {
        // The common items in new order, each as its old position.
        var sequence: [Int32] = []
        sequence.reserveCapacity(pairing.commonCount)
        for oldPosition in pairing.oldPositions where oldPosition >= 0 { sequence.append(oldPosition) }
        let (staying, runLength) = IncreasingRun.members(of: sequence)
        let moves = sequence.count - runLength
        guard moves > 0 else { return 0 }

        // Common index (new order) of each old position, or -1 for a removed item.
        var commonAt = [Int32](repeating: -1, count: oldCount)
        for (common, oldPosition) in sequence.enumerated() { commonAt[Int(oldPosition)] = Int32(common) }
        var oldSlot = [Int32](repeating: -1, count: sequence.count)
        var newSlot = [Int32](repeating: -1, count: sequence.count)
        var occupied: [Bool] = []
        occupied.reserveCapacity(sequence.count + moves)
        /// New slots for the moved items that follow `common` in new order, up to the next staying one.
        func placeFollowers(of common: Int) {
            var next = common + 1
            while next < sequence.count, !staying[next] {
                newSlot[next] = Int32(occupied.count)
                occupied.append(false)
                next += 1
            }
        }
        placeFollowers(of: -1)
        for common in commonAt where common >= 0 {
            let common = Int(common)
            oldSlot[common] = Int32(occupied.count)
            occupied.append(true)
            if staying[common] { placeFollowers(of: common) }
        }

        var ranks = RankTree(occupied: occupied)
        for common in 0..<sequence.count where !staying[common] {
            let from = ranks.rank(Int(oldSlot[common]))
            ranks.change(Int(oldSlot[common]), by: -1)
            let to = ranks.rank(Int(newSlot[common]))
            ranks.change(Int(newSlot[common]), by: 1)
            operations.append(.move(from: from, to: to))
        }
        return moves
    }
}
