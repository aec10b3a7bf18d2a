extension FieldPath {
    /// Where this field's value starts inside the element `bytes[range]`, or nil when it is missing.
    ///
    /// Reads only the members on the way: other members are skipped without decoding. When an
    /// object repeats a member name the last one wins, as in `JSON.parse`, so clients that decode
    /// the item see the same value Folio sorted and filtered by. `firstMemberWins`: the caller
    /// knows that no item names a top-level member twice (`ItemList.namesMembersOnce`), so the
    /// first member of the name is the last, and the rest of the item is not read.
    func valueStart(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, firstMemberWins: Bool = false) -> Int? {
        var current = range.lowerBound
        let end = range.upperBound
        var topLevel = true
        for token in tokens {
            JSONScan.skipWhitespace(bytes, &current, end)
            guard current < end else { return nil }
            defer { topLevel = false }
            switch bytes[current] {
            case UInt8(ascii: "{"):
                guard let found = Self.member(token, in: bytes, current, end, firstWins: firstMemberWins && topLevel)
                else { return nil }
                current = found
            case UInt8(ascii: "["):
                guard let found = Self.arrayElement(token, in: bytes, current, end) else { return nil }
                current = found
            default:
                return nil
            }
        }
        JSONScan.skipWhitespace(bytes, &current, end)
        return current < end ? current : nil
    }

    /// The last member named `name` wins, as in `JSON.parse`.
    private static func member(
        _ name: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, _ open: Int, _ end: Int, firstWins: Bool
    ) -> Int? {
        var found: Int?
        JSONScan.forEachMember(bytes, open, end) { key, escaped, value in
            guard JSONScan.key(bytes, key, escaped: escaped, is: name) else { return true }
            found = value.lowerBound
            return !firstWins
        }
        return found
    }

    /// `token` must be an array index as RFC 6901 spells it: digits, no leading zero.
    private static func arrayElement(_ token: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, _ open: Int, _ end: Int)
        -> Int?
    {
        guard !token.isEmpty, token.count <= 10, token.allSatisfy({ (0x30...0x39).contains($0) }),
            token.count == 1 || token[0] != 0x30
        else { return nil }
        var wanted = token.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        var index = open + 1
        while true {
            JSONScan.skipWhitespace(bytes, &index, end)
            guard index < end, bytes[index] != UInt8(ascii: "]") else { return nil }
            if wanted == 0 { return index }
            guard let after = JSONScan.skipValue(bytes, index, end) else { return nil }
            index = after
            JSONScan.skipWhitespace(bytes, &index, end)
            guard index < end, bytes[index] == UInt8(ascii: ",") else { return nil }
            index += 1
            wanted -= 1
        }
    }
}

@inline(__always)
func memoryEqual(_ lhs: UnsafePointer<UInt8>?, _ rhs: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    guard count > 0, let lhs else { return true }
    for offset in 0..<count where lhs[offset] != rhs[offset] { return false }
    return true
}
