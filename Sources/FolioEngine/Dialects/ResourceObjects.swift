/// The items of a page as resource objects, `[{"type":TYPE,"id":ID,"attributes":{…}},…]` (`jsonapi`, `strapi`,
/// docs/API.md, "More dialects"): the id read at `idField`, `attributes` the item's other top-level members with
/// each member's bytes (key and value) copied as the upstream wrote them, cut to `fields` when the request names
/// some. Nothing is decoded.
struct ResourceObjects: ByteWritable {
    let view: ListView
    let positions: Range<Int>
    let fields: SparseFields?
    let idField: FieldPath
    /// `"type":…,` as JSON, written first; nil for none (Strapi).
    let typeMember: [UInt8]?
    /// JSON:API's ids are always strings: a number id is written in quotes, its text unchanged.
    let idAsString: Bool

    init(page: DialectPage, idField: FieldPath, type: String?, idAsString: Bool) {
        view = page.view
        positions = page.paging.items.clamped(to: 0..<page.view.count)
        fields = page.fields
        self.idField = idField
        typeMember = type.map { type in
            var member = Array("\"type\":".utf8)
            JSONText.appendString(type, to: &member)
            return member + [UInt8(ascii: ",")]
        }
        self.idAsString = idAsString
    }

    func write(to sink: inout some ByteSink) {
        sink.write(UInt8(ascii: "["))
        let list = view.list
        // The id member itself is not an attribute; an id inside another member (a JSON Pointer) leaves it whole.
        let idName = idField.tokens.count == 1 ? idField.tokens[0] : nil
        list.bytes.withUnsafeBufferPointer { bytes in
            for position in positions {
                if position != positions.lowerBound { sink.write(UInt8(ascii: ",")) }
                let range = list.range(of: view.elementIndex(at: position))
                if sink.isCounting {
                    // An upper bound: the id and the attributes are each at most the item.
                    sink.write(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[range])))
                    sink.write(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[range])))
                    sink.write("{\"id\":\"\",\"attributes\":{}}")
                    if let typeMember { typeMember.withUnsafeBytes { sink.write($0) } }
                    continue
                }
                writeObject(bytes, range, idName: idName, to: &sink)
            }
        }
        sink.write(UInt8(ascii: "]"))
    }

    private func writeObject(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, idName: [UInt8]?, to sink: inout some ByteSink
    ) {
        sink.write(UInt8(ascii: "{"))
        if let typeMember { typeMember.withUnsafeBytes { sink.write($0) } }
        sink.write("\"id\":")
        writeID(bytes, range, to: &sink)
        sink.write(",\"attributes\":{")
        var open = range.lowerBound
        JSONScan.skipWhitespace(bytes, &open, range.upperBound)
        if open < range.upperBound, bytes[open] == UInt8(ascii: "{") {
            var first = true
            JSONScan.forEachMember(bytes, open, range.upperBound) { key, escaped, value in
                if let idName, JSONScan.key(bytes, key, escaped: escaped, is: idName) { return true }
                if let fields, !fields.names.contains(where: { JSONScan.key(bytes, key, escaped: escaped, is: $0) }) {
                    return true
                }
                if !first { sink.write(UInt8(ascii: ",")) }
                first = false
                sink.write(
                    UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[key.lowerBound..<value.upperBound])))
                return true
            }
        }
        sink.write("}}")
    }

    /// The id as the upstream wrote it, a number quoted when `idAsString`; `null` for an item without one (a list
    /// holding such an item is answered `items-without-id` before any body is written).
    private func writeID(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, to sink: inout some ByteSink) {
        guard let start = idField.valueStart(in: bytes, range),
            bytes[start] == JSONScan.quote || bytes[start] == UInt8(ascii: "-") || DecimalNumber.isDigit(bytes[start]),
            let end = JSONScan.skipValue(bytes, start, range.upperBound)
        else {
            sink.write("null")
            return
        }
        let quoted = idAsString && bytes[start] != JSONScan.quote
        if quoted { sink.write(UInt8(ascii: "\"")) }
        sink.write(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<end])))
        if quoted { sink.write(UInt8(ascii: "\"")) }
    }
}
