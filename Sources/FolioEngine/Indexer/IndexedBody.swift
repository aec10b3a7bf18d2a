/// What one body (one upstream response; a crawl feeds several) contained.
public struct IndexedBody: Sendable {
    /// Elements this body added to the list.
    public let itemCount: Int
    /// Raw bytes of each capture pointer's value when the body has one (e.g. `/next` →
    /// `"http://x/p2"` or `null`, `/total` → `1337`); absent pointers have no entry.
    public let captures: [JSONPointer: [UInt8]]

    public init(itemCount: Int, captures: [JSONPointer: [UInt8]]) {
        self.itemCount = itemCount
        self.captures = captures
    }
}
