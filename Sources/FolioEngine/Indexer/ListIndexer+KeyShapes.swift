/// The object keys of the element the skim read last, each with its colon as one run of bytes,
/// for the skim to recognize in the next element by two word compares instead of a string scan.
///
/// Lists are made of elements of one shape: the `n`-th key of one element (counted in document
/// order, at any depth) is the `n`-th key of the next, byte for byte. A JSON string's end and
/// validity follow from its bytes alone, so bytes equal to a key the skim already validated,
/// closing quote and colon included, are that same valid key; nothing else is assumed. A miss
/// (another shape, a key over 16 bytes, whitespace before the colon) reads the key as before and
/// keeps it for the next element.
struct KeyShapes {
    /// Keys kept (the first ones of an element).
    static let capacity = 16
    /// Longest key kept, quotes and colon included: two 64-bit words.
    static let maxLength = 16
    /// Words per key: the two words of its bytes, their masks, and its length.
    private static let stride = 5

    private let words: UnsafeMutablePointer<UInt64>

    /// Calls `body` with shapes that know no key yet, kept on the stack.
    @inline(__always)
    static func withNone<Result>(_ body: (KeyShapes) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: capacity &* stride) { words in
            let shapes = KeyShapes(words: words.baseAddress!)
            for slot in 0..<capacity { shapes.forget(slot) }
            return body(shapes)
        }
    }
    /// The length of key `slot` when `base[at...]` starts with it (closing quote and colon
    /// included), else nil. `base[at]` is the opening quote and 16 bytes from `at` are readable.
    @inline(__always)
    func match(_ slot: Int, _ base: UnsafePointer<UInt8>, at: Int) -> Int? {
        guard slot < Self.capacity else { return nil }
        let entry = words + slot &* Self.stride
        let raw = UnsafeRawPointer(base + at)
        let low = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        let high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        guard (low ^ entry[0]) & entry[2] | (high ^ entry[1]) & entry[3] == 0 else { return nil }
        return Int(truncatingIfNeeded: entry[4])
    }

    /// Keeps `base[start..<end]` (a key from its opening quote to its colon) as key `slot`, or
    /// forgets that slot when the key is too long to keep.
    @inline(__always)
    func keep(_ slot: Int, _ base: UnsafePointer<UInt8>, start: Int, end: Int) {
        guard slot < Self.capacity else { return }
        let length = end &- start
        guard length <= Self.maxLength else { return forget(slot) }
        let entry = words + slot &* Self.stride
        let raw = UnsafeRawPointer(base + start)
        let lowMask: UInt64 = length >= 8 ? ~0 : (1 &<< UInt64(8 &* length)) &- 1
        let highMask: UInt64 = length >= 16 ? ~0 : length <= 8 ? 0 : (1 &<< UInt64(8 &* (length &- 8))) &- 1
        entry[0] = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)) & lowMask
        entry[1] = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) & highMask
        entry[2] = lowMask
        entry[3] = highMask
        entry[4] = UInt64(truncatingIfNeeded: length)
    }

    /// Makes key `slot` match nothing: its first byte must be 0, where a key has its quote.
    private func forget(_ slot: Int) {
        let entry = words + slot &* Self.stride
        entry[0] = 0
        entry[1] = 0
        entry[2] = 0xFF
        entry[3] = 0
        entry[4] = 0
    }
}
