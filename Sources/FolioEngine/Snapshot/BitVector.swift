/// A fixed-size set of positions, one bit each (ties between neighbours in a sorted order).
struct BitVector: Sendable {
    private(set) var words: [UInt64]
    let count: Int

    init(count: Int) {
        self.count = count
        words = [UInt64](repeating: 0, count: (count + 63) / 64)
    }

    @inline(__always) subscript(_ position: Int) -> Bool {
        get { words[position >> 6] & (1 << UInt64(position & 63)) != 0 }
        set {
            if newValue {
                words[position >> 6] |= 1 << UInt64(position & 63)
            } else {
                words[position >> 6] &= ~(1 << UInt64(position & 63))
            }
        }
    }

    /// How many positions are set.
    var setCount: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    var retainedBytes: Int { words.capacity * 8 }
}
