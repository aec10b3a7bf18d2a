/// Writes page bodies by copying element bytes from the list: no decoding, no per-item
/// allocation, one exactly sized output buffer per page.
public enum PageWriter {
    /// `{"paging":{…},"<itemsKey>":[items]}` with the paging keys in the order of
    /// docs/API.md, "The page".
    public static func envelope(
        view: ListView, paging: Paging, links: LinkBuilder, itemsKey: String, fields: SparseFields? = nil
    ) -> [UInt8] {
        [UInt8](
            exactly: Envelope(
                paging: PagingObject(paging: paging, links: links),
                items: PageItems(view: view, positions: paging.items.clamped(to: 0..<view.count), fields: fields),
                itemsKey: itemsKey))
    }

    /// `{"paging":{…}}`: the envelope without its items (`metadataOnly`).
    public static func metadata(paging: Paging, links: LinkBuilder) -> [UInt8] {
        [UInt8](exactly: Envelope(paging: PagingObject(paging: paging, links: links), items: nil, itemsKey: ""))
    }

    /// `[item,item]` for the view positions `items` (routes with `envelope: false`).
    public static func bareArray(view: ListView, items: Range<Int>, fields: SparseFields? = nil) -> [UInt8] {
        [UInt8](exactly: PageItems(view: view, positions: items, fields: fields))
    }
}

/// The `"paging"` object's value.
struct PagingObject: ByteWritable {
    let paging: Paging
    let snapshot: String
    let first: String?
    let previous: String?
    let next: String?
    let last: String?

    /// Builds the link strings once; both writing passes reuse them.
    init(paging: Paging, links: LinkBuilder) {
        self.paging = paging
        snapshot = links.snapshot
        (first, previous, next, last) = links.urls(paging)
    }

    func write(to sink: inout some ByteSink) {
        sink.write("{\"totalCount\":")
        sink.writeDecimal(paging.totalCount)
        sink.write(",\"offset\":")
        sink.writeDecimal(paging.offset)
        sink.write(",\"pageSize\":")
        sink.writeDecimal(paging.pageSize)
        sink.write(",\"page\":")
        if let page = paging.page { sink.writeDecimal(page) } else { sink.write("null") }
        sink.write(",\"pageCount\":")
        sink.writeDecimal(paging.pageCount)
        sink.write(",\"pageBase\":")
        sink.writeDecimal(paging.pageBase)
        sink.write(paging.hasMore ? ",\"hasMore\":true" : ",\"hasMore\":false")
        sink.write(",\"snapshot\":")
        JSONText.writeString(snapshot, to: &sink)
        sink.write(",\"first\":")
        JSONText.writeLink(first, to: &sink)
        sink.write(",\"previous\":")
        JSONText.writeLink(previous, to: &sink)
        sink.write(",\"next\":")
        JSONText.writeLink(next, to: &sink)
        sink.write(",\"last\":")
        JSONText.writeLink(last, to: &sink)
        sink.write(UInt8(ascii: "}"))
    }

}

/// `[item,item]`: element bytes copied from the list in view order (only the chosen members'
/// bytes with `fields`).
struct PageItems: ByteWritable {
    let view: ListView
    let positions: Range<Int>
    var fields: SparseFields?

    func write(to sink: inout some ByteSink) {
        sink.write(UInt8(ascii: "["))
        let list = view.list
        list.bytes.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            for position in positions {
                if position != positions.lowerBound { sink.write(UInt8(ascii: ",")) }
                let range = list.range(of: view.elementIndex(at: position))
                // A sparse item is never longer than the item: counted whole, scanned once.
                if let fields, !sink.isCounting {
                    fields.write(bytes, range, to: &sink)
                } else {
                    sink.write(UnsafeRawBufferPointer(rebasing: raw[range]))
                }
            }
        }
        sink.write(UInt8(ascii: "]"))
    }
}

/// `{"paging":…}` or `{"paging":…,"<itemsKey>":[…]}`.
private struct Envelope: ByteWritable {
    let paging: PagingObject
    let items: PageItems?
    let itemsKey: String

    func write(to sink: inout some ByteSink) {
        sink.write("{\"paging\":")
        paging.write(to: &sink)
        if let items {
            sink.write(UInt8(ascii: ","))
            JSONText.writeString(itemsKey, to: &sink)
            sink.write(UInt8(ascii: ":"))
            items.write(to: &sink)
        }
        sink.write(UInt8(ascii: "}"))
    }
}
