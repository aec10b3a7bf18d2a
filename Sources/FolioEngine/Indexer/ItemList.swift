/// The elements of one upstream list, kept as the upstream's own bytes.
///
/// `bytes` is every body received for the list, back to back, exactly as it arrived; element `i`
/// is `bytes[starts[i] ..< ends[i]]`, the bytes between its first and last character. Pages are
/// written by copying these ranges, so items reach clients byte for byte as the upstream wrote
/// them. Offsets are 32-bit: a list is capped below 4 GiB, which keeps the index at 8 bytes an
/// element.
public struct ItemList: Sendable {
    public let bytes: [UInt8]
    public let starts: [UInt32]
    public let ends: [UInt32]

    public init(bytes: [UInt8], starts: [UInt32], ends: [UInt32]) {
        precondition(starts.count == ends.count, "one end per start")
        self.bytes = bytes
        self.starts = starts
        self.ends = ends
    }

    public static let empty = ItemList(bytes: [], starts: [], ends: [])

    /// Number of elements.
    @inlinable public var count: Int { starts.count }

    /// Byte range of element `index` within `bytes`.
    @inlinable public func range(of index: Int) -> Range<Int> {
        Int(starts[index])..<Int(ends[index])
    }

    /// The element's bytes (a copy; for tests and small reads, not for page writing).
    public func element(_ index: Int) -> [UInt8] {
        Array(bytes[range(of: index)])
    }

    /// Bytes retained by this list: the body plus the index. The body counts its elements, not
    /// its capacity: a large indexed store's unused capacity holds no pages (`ListIndexer`
    /// releases them), and a small one's is at most 4 KiB.
    public var retainedBytes: Int {
        bytes.count + starts.capacity * 4 + ends.capacity * 4
    }
}
