/// Ids as cursors (`stripe`'s `starting_after` and `ending_before`, docs/API.md, "More dialects"): an id's text is
/// a string id's decoded text, or a number id's text as written; a cursor matches an item whose id has that text.
public enum CursorIDs {
    /// The id text of the view's item at `position`, nil when it has no string or number at `field`.
    public static func text(_ view: ListView, at position: Int, field: FieldPath) -> String? {
        let list = view.list
        return list.bytes.withUnsafeBufferPointer { bytes in
            guard let contents = idText(bytes, list.range(of: view.elementIndex(at: position)), field: field) else {
                return nil
            }
            guard contents.escaped else { return String(decoding: bytes[contents.range], as: UTF8.self) }
            var decoded: [UInt8] = []
            IDValue.appendDecoded(bytes, contents.range, to: &decoded)
            return String(decoding: decoded, as: UTF8.self)
        }
    }

    /// The position in `view` of the first item whose id text is `id`, nil when none is.
    public static func position(of id: String, in view: ListView, field: FieldPath) -> Int? {
        let list = view.list
        let wanted = Array(id.utf8)
        return list.bytes.withUnsafeBufferPointer { bytes in
            var scratch: [UInt8] = []
            for position in 0..<view.count {
                guard let contents = idText(bytes, list.range(of: view.elementIndex(at: position)), field: field)
                else { continue }
                if !contents.escaped {
                    if contents.range.count == wanted.count, bytes[contents.range].elementsEqual(wanted) {
                        return position
                    }
                    continue
                }
                scratch.removeAll(keepingCapacity: true)
                IDValue.appendDecoded(bytes, contents.range, to: &scratch)
                if scratch == wanted { return position }
            }
            return nil
        }
    }

    /// Where the id's text is: a string's contents (with escapes or not), or a number's text.
    private static func idText(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, field: FieldPath
    ) -> (range: Range<Int>, escaped: Bool)? {
        guard let start = field.valueStart(in: bytes, range) else { return nil }
        if bytes[start] == JSONScan.quote {
            guard let (after, escaped) = JSONScan.skipString(bytes, start, range.upperBound) else { return nil }
            return (start + 1..<after - 1, escaped)
        }
        guard bytes[start] == UInt8(ascii: "-") || DecimalNumber.isDigit(bytes[start]),
            DecimalNumber(bytes, start, range.upperBound) != nil,
            let end = JSONScan.skipValue(bytes, start, range.upperBound)
        else { return nil }
        return (start..<end, false)
    }
}
