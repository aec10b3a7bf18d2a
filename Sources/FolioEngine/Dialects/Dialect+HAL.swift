extension Dialect {
    /// Spring Data REST's HAL pages: `page` (first page 0) and `size`; `sort=field`,
    /// `sort=field,asc|desc` (also `sort=a,b,desc`: one direction for several fields), repeated
    /// for more keys. Body `{"_embedded":{"<itemsKey>":[…]},"_links":{…},"page":{…}}` as
    /// `application/hal+json`; absent rels are left out.
    ///
    /// Renames in `params` apply: `pageSize` renames `size`, `page` renames `page`.
    public static let hal = Dialect(
        name: "hal",
        pagingModes: { names, _ in
            [
                PagingMode(
                    size: PagingMode.name("size", renamed: names.pageSize, folioDefault: "pageSize"),
                    position: .page(PagingMode.name("page", renamed: names.page, folioDefault: "page"), base: 0))
            ]
        },
        sort: SortReading(key: "sort", repeats: true, orderKey: nil) { (values, _) throws(FolioError) -> String? in
            guard !values.isEmpty else { return nil }
            return try values.map(halSortKeys).joined(separator: ",")
        },
        filter: nil, comparisonSuffixes: [],
        contentType: "application/hal+json", contentRangeOnPages: false,
        page: { page in [UInt8](exactly: HALPage(page: page, withItems: true)) },
        metadata: { page in [UInt8](exactly: HALPage(page: page, withItems: false)) })

    /// `name`, `name,desc`, `a,b,asc` (directions case-insensitive, as Spring reads them) into
    /// Folio's `name`, `-name`, `a,b`.
    private static func halSortKeys(_ value: String) throws(FolioError) -> String {
        var parts = value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        var descending = false
        if parts.count > 1, let direction = parts.last.map({ $0.lowercased() }),
            direction == "asc" || direction == "desc"
        {
            descending = direction == "desc"
            parts.removeLast()
        }
        guard !parts.contains(where: { $0.isEmpty || $0.hasPrefix("-") }) else {
            throw .invalidParameter(
                "sort '\(DetailText.clip(value))' must be field names separated by commas, optionally "
                    + "followed by ,asc or ,desc")
        }
        return parts.map { (descending ? "-" : "") + $0 }.joined(separator: ",")
    }
}

/// `{"_embedded":{"<itemsKey>":[…]},"_links":{"first":{"href":…},…},"page":{…}}`; without
/// `_embedded` for `metadataOnly`.
private struct HALPage: ByteWritable {
    let itemsKey: String
    let items: PageItems?
    let links: [(rel: StaticString, href: String)]
    let paging: Paging

    init(page: DialectPage, withItems: Bool) {
        let paging = page.paging
        let url = page.links.url
        itemsKey = page.itemsKey
        items = withItems ? page.items : nil
        let rels: [(StaticString, Int?)] = [
            ("first", paging.first), ("prev", paging.previous), ("self", paging.offset), ("next", paging.next),
            ("last", paging.last),
        ]
        links = rels.compactMap { rel, offset in offset.map { (rel: rel, href: url($0)) } }
        self.paging = paging
    }

    func write(to sink: inout some ByteSink) {
        sink.write(UInt8(ascii: "{"))
        if let items {
            sink.write("\"_embedded\":{")
            JSONText.writeString(itemsKey, to: &sink)
            sink.write(UInt8(ascii: ":"))
            items.write(to: &sink)
            sink.write("},")
        }
        sink.write("\"_links\":{")
        for (index, link) in links.enumerated() {
            if index > 0 { sink.write(UInt8(ascii: ",")) }
            sink.write(UInt8(ascii: "\""))
            sink.write(link.rel)
            sink.write("\":{\"href\":")
            JSONText.writeString(link.href, to: &sink)
            sink.write(UInt8(ascii: "}"))
        }
        sink.write("},\"page\":{\"size\":")
        sink.writeDecimal(paging.pageSize)
        sink.write(",\"totalElements\":")
        sink.writeDecimal(paging.totalCount)
        sink.write(",\"totalPages\":")
        sink.writeDecimal(paging.pageCount)
        sink.write(",\"number\":")
        // Spring's number is the page index; an unaligned offset (a `Range`) counts whole pages before it.
        sink.writeDecimal(paging.offset / paging.pageSize)
        sink.write("}}")
    }
}
