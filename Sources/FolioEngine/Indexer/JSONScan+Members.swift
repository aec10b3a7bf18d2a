extension JSONScan {
    /// Calls `body` with each member of the object whose `{` is at `open`: the key's range
    /// (quotes included), whether the key holds escapes, and the value's range. Stops when
    /// `body` returns false, at the object's end, or at anything malformed.
    @inline(__always)
    static func forEachMember(
        _ bytes: UnsafeBufferPointer<UInt8>, _ open: Int, _ end: Int,
        _ body: (_ key: Range<Int>, _ escaped: Bool, _ value: Range<Int>) -> Bool
    ) {
        var index = open + 1
        while true {
            skipWhitespace(bytes, &index, end)
            guard index < end, bytes[index] == quote, let (afterKey, escaped) = skipString(bytes, index, end) else {
                return
            }
            let key = index..<afterKey
            index = afterKey
            skipWhitespace(bytes, &index, end)
            guard index < end, bytes[index] == UInt8(ascii: ":") else { return }
            index += 1
            skipWhitespace(bytes, &index, end)
            guard let after = skipValue(bytes, index, end), body(key, escaped, index..<after) else { return }
            index = after
            skipWhitespace(bytes, &index, end)
            guard index < end, bytes[index] == UInt8(ascii: ",") else { return }
            index += 1
        }
    }

    /// Whether the key at `key` (quotes included) names `name` (unescaped UTF-8).
    @inline(__always)
    static func key(_ bytes: UnsafeBufferPointer<UInt8>, _ key: Range<Int>, escaped: Bool, is name: [UInt8]) -> Bool {
        let inner = key.lowerBound + 1..<key.upperBound - 1
        if escaped { return unescape(bytes, inner) == name }
        return inner.count == name.count
            && name.withUnsafeBufferPointer { wanted in
                memoryEqual(wanted.baseAddress, bytes.baseAddress! + inner.lowerBound, name.count)
            }
    }
}
