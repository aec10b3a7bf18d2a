/// A set of slots `0..<count` that answers how many occupied slots lie before a given one, in
/// O(log n) per query or change (a Fenwick tree): the current index of an item while a patch's
/// moves are planned (`ViewChanges+Moves.swift`).
struct RankTree {
    /// 1-based: `tree[i]` counts the occupied slots in `(i - lowbit(i)) ..< i` (0-based).
    private var tree: [Int32]

    /// `occupied` has one flag per slot; built in O(n).
    init(occupied: [Bool]) {
        let count = occupied.count
        tree = [Int32](repeating: 0, count: count + 1)
        for slot in 0..<count where occupied[slot] { tree[slot + 1] = 1 }
        for index in stride(from: 1, through: count, by: 1) {
            let parent = index + (index & -index)
            if parent <= count { tree[parent] += tree[index] }
        }
    }

    /// Occupied slots before `slot`.
    func rank(_ slot: Int) -> Int {
        var index = slot
        var sum: Int32 = 0
        while index > 0 {
            sum += tree[index]
            index &= index - 1
        }
        return Int(sum)
    }

    /// Marks `slot` occupied (`delta` 1) or free (`delta` -1).
    mutating func change(_ slot: Int, by delta: Int32) {
        var index = slot + 1
        while index < tree.count {
            tree[index] += delta
            index += index & -index
        }
    }
}
