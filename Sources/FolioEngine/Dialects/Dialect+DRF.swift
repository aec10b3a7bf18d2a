extension Dialect {
    /// Django REST framework (`rest_framework/pagination.py`): `PageNumberPagination`'s `page`
    /// (first page 1) and `page_size`, or `LimitOffsetPagination`'s `limit` and `offset` (links
    /// then keep that style). Body `{"count","next","previous","results"}`; Folio's `sort`.
    ///
    /// Renames in `params` apply: `pageSize` renames `page_size`, `offset` and `page` their own.
    public static let drf = Dialect(
        name: "drf",
        pagingModes: { names, _ in
            [
                PagingMode(
                    size: PagingMode.name("page_size", renamed: names.pageSize, folioDefault: "pageSize"),
                    position: .page(PagingMode.name("page", renamed: names.page, folioDefault: "page"), base: 1)),
                PagingMode(
                    size: "limit",
                    position: .offset(PagingMode.name("offset", renamed: names.offset, folioDefault: "offset"))),
            ]
        },
        sort: .folio, filter: nil, comparisonSuffixes: [],
        contentType: "application/json", contentRangeOnPages: false,
        page: { page in [UInt8](exactly: DRFPage(page: page, withItems: true)) },
        metadata: { page in [UInt8](exactly: DRFPage(page: page, withItems: false)) })
}

/// `{"count":N,"next":URL|null,"previous":URL|null,"results":[…]}`; without `results` for
/// `metadataOnly`.
private struct DRFPage: ByteWritable {
    let count: Int
    let next: String?
    let previous: String?
    let items: PageItems?

    init(page: DialectPage, withItems: Bool) {
        count = page.paging.totalCount
        next = page.paging.next.map(page.links.url)
        previous = page.paging.previous.map(page.links.url)
        items = withItems ? page.items : nil
    }

    func write(to sink: inout some ByteSink) {
        sink.write("{\"count\":")
        sink.writeDecimal(count)
        sink.write(",\"next\":")
        JSONText.writeLink(next, to: &sink)
        sink.write(",\"previous\":")
        JSONText.writeLink(previous, to: &sink)
        if let items {
            sink.write(",\"results\":")
            items.write(to: &sink)
        }
        sink.write(UInt8(ascii: "}"))
    }
}
