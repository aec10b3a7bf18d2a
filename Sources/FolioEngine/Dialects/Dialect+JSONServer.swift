extension Dialect {
    /// json-server 0.17 (what react-admin's `ra-data-json-server` talks to): `_page` (first page
    /// 1) and `_limit`; `_start` and `_end` (end exclusive) or `_start` and `_limit`;
    /// `_sort=a,b` with `_order=asc,desc`; filters `FIELD=v`, `FIELD_gte`, `FIELD_lte`,
    /// `FIELD_ne`; `q`. The body is the bare array; `X-Total-Count` and `Link` carry the rest.
    ///
    /// Renames in `params` apply: `pageSize` renames `_limit`, `offset` `_start`, `page` `_page`.
    public static let jsonServer = Dialect(
        name: "jsonserver",
        pagingModes: { names, _ in
            let limit = PagingMode.name("_limit", renamed: names.pageSize, folioDefault: "pageSize")
            let start = PagingMode.name("_start", renamed: names.offset, folioDefault: "offset")
            return [
                PagingMode(
                    size: limit,
                    position: .page(PagingMode.name("_page", renamed: names.page, folioDefault: "page"), base: 1)),
                PagingMode(size: limit, position: .offset(start)),
                PagingMode(size: nil, position: .startEnd(start: start, end: "_end")),
            ]
        },
        sort: SortReading(key: "_sort", repeats: false, orderKey: "_order") {
            (values, order) throws(FolioError) -> String? in
            try jsonServerSort(values.first, order: order)
        },
        filter: nil,
        comparisonSuffixes: [("_gte", .greaterOrEqual), ("_lte", .lessOrEqual), ("_ne", .notEqual)],
        contentType: "application/json", contentRangeOnPages: false,
        page: { page in PageWriter.bareArray(view: page.view, items: page.paging.items, fields: page.fields) },
        metadata: { page in PageWriter.metadata(paging: page.paging, links: page.links) })

    /// `_sort=a,b&_order=asc,desc` into `a,-b`. Directions are case-insensitive (react-admin sends
    /// `ASC`); fewer directions than fields leave the rest ascending; more is a 400, as is any
    /// other direction, even without `_sort`.
    private static func jsonServerSort(_ sort: String?, order: String?) throws(FolioError) -> String? {
        var descending: [Bool] = []
        for direction in order.map({ $0.split(separator: ",", omittingEmptySubsequences: false) }) ?? [] {
            switch direction.lowercased() {
            case "asc": descending.append(false)
            case "desc": descending.append(true)
            default:
                throw .invalidParameter(
                    "_order must be asc or desc (comma-separated, one per _sort field), got \"\(DetailText.clip(order ?? ""))\""
                )
            }
        }
        guard let sort else { return nil }
        let fields = sort.split(separator: ",", omittingEmptySubsequences: false)
        guard descending.count <= fields.count else {
            throw .invalidParameter("_order has \(descending.count) directions for \(fields.count) _sort fields")
        }
        return fields.enumerated().map { index, field in
            (index < descending.count && descending[index] ? "-" : "") + String(field)
        }.joined(separator: ",")
    }
}
