/// The longest run of a sequence that increases (a longest increasing subsequence), by patience
/// sorting in O(n log n): the common items that keep their relative order in both views, so
/// only the others move (docs/API.md, "Changes between snapshots").
enum IncreasingRun {
    /// Which positions of `values` (distinct) belong to one longest increasing run, and its
    /// length. A value above the current longest run's last extends it in O(1), so a sequence
    /// that is mostly in order costs little more than reading it.
    static func members(of values: [Int32]) -> (members: BitVector, length: Int) {
        let count = values.count
        var members = BitVector(count: count)
        guard count > 0 else { return (members, 0) }
        // tails[l]: the position of the smallest value ending a run of length l + 1.
        var tails: [Int32] = []
        var previous = [Int32](repeating: -1, count: count)
        values.withUnsafeBufferPointer { values in
            previous.withUnsafeMutableBufferPointer { previous in
                for position in 0..<count {
                    let value = values[position]
                    if let last = tails.last {
                        if values[Int(last)] < value {
                            previous[position] = last
                            tails.append(Int32(position))
                            continue
                        }
                    } else {
                        tails.append(Int32(position))
                        continue
                    }
                    // The first tail whose value is above `value` (values are distinct).
                    var low = 0
                    var high = tails.count - 1
                    while low < high {
                        let middle = (low + high) / 2
                        if values[Int(tails[middle])] < value { low = middle + 1 } else { high = middle }
                    }
                    tails[low] = Int32(position)
                    previous[position] = low > 0 ? tails[low - 1] : -1
                }
            }
        }
        var position = Int(tails[tails.count - 1])
        while position >= 0 {
            members[position] = true
            position = Int(previous[position])
        }
        return (members, tails.count)
    }
}
