/// `?fields=id,name` (docs/API.md, "Requests"): each item written with only the named top-level members, in the
/// item's own order, each member's bytes (key and value) copied exactly as the upstream wrote
/// them, joined by `,`. An item that is not an object is written unchanged; a name an item lacks
/// is simply absent. No item is decoded.
public struct SparseFields: Sendable, Hashable {
    /// The member names, unescaped UTF-8.
    let names: [[UInt8]]

    public init(_ names: [String]) {
        self.names = names.map { Array($0.utf8) }
    }

    /// Writes the element at `range` of `bytes` with the chosen members only.
    func write(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, to sink: inout some ByteSink) {
        var open = range.lowerBound
        JSONScan.skipWhitespace(bytes, &open, range.upperBound)
        guard open < range.upperBound, bytes[open] == UInt8(ascii: "{") else {
            sink.write(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[range])))
            return
        }
        sink.write(UInt8(ascii: "{"))
        var first = true
        JSONScan.forEachMember(bytes, open, range.upperBound) { key, escaped, value in
            guard names.contains(where: { JSONScan.key(bytes, key, escaped: escaped, is: $0) }) else { return true }
            if !first { sink.write(UInt8(ascii: ",")) }
            first = false
            sink.write(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[key.lowerBound..<value.upperBound])))
            return true
        }
        sink.write(UInt8(ascii: "}"))
    }
}
