/// The string stops of 64 bytes of the store, for the skim: most of an element's short strings
/// (keys and values alike) end inside one window, each by a shift and a trailing-zero count
/// instead of its own loads, so the scan's position no longer waits on a load per string.
struct StringWindow {
    /// Store index of bit 0.
    private(set) var start: Int
    /// `Bytes16.stringStops` of the window's bytes, bit k for byte `start + k`.
    private(set) var stops: UInt64 = 0
    /// The stops that are `"`.
    private(set) var quotes: UInt64 = 0

    /// No window yet: every string from store index `index` on loads one.
    init(before index: Int) {
        start = index &- 64
    }

    /// Classifies `base[index..<index + 64]`.
    @inline(__always)
    mutating func load(_ base: UnsafePointer<UInt8>, at index: Int) {
        start = index
        stops = 0
        quotes = 0
        for block in 0..<4 {
            let bytes = Bytes16(base + (index &+ 16 &* block))
            stops |= UInt64(bytes.stringStops) &<< UInt64(16 &* block)
            quotes |= UInt64(bytes.quotes) &<< UInt64(16 &* block)
        }
    }
}
