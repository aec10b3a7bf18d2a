extension Dialect {
    /// Folio's own requests and envelope (docs/API.md, "Requests" and "The page"): `pageSize` with `offset` or `page`
    /// (renamed by `params`, first page `pageBase`), `sort=a,-b`, `FIELD[op]=v` filters.
    public static let folio = Dialect(
        name: "folio",
        pagingModes: { names, pageBase in
            [
                PagingMode(size: names.pageSize, position: .offset(names.offset)),
                PagingMode(size: names.pageSize, position: .page(names.page, base: pageBase)),
            ]
        },
        sort: .folio, filter: nil, comparisonSuffixes: [],
        contentType: "application/json", contentRangeOnPages: false,
        page: { page in
            page.envelope
                ? PageWriter.envelope(
                    view: page.view, paging: page.paging, links: page.links, itemsKey: page.itemsKey,
                    fields: page.fields)
                : PageWriter.bareArray(view: page.view, items: page.paging.items, fields: page.fields)
        },
        metadata: { page in PageWriter.metadata(paging: page.paging, links: page.links) })
}
