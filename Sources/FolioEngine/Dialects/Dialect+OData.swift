extension Dialect {
    /// OData v4 JSON (DevExtreme, Syncfusion, Microsoft.OData.Client): `$top` and `$skip`, `$count=true`,
    /// `$orderby=a desc,b`, `$select=a,b`, `$search=text` (Folio's `q`) and the `$filter` subset of `ODataFilter`.
    /// Body `{"@odata.context":…,"@odata.count":N,"value":[…],"@odata.nextLink":…}` with `OData-Version: 4.0`;
    /// without `$top` the route's `pageSize` applies and `nextLink` continues.
    ///
    /// Renames in `params` apply: `pageSize` renames `$top`, `offset` `$skip`.
    public static let odata = Dialect(
        name: "odata",
        pagingModes: { names, _ in
            [
                PagingMode(
                    size: PagingMode.name("$top", renamed: names.pageSize, folioDefault: "pageSize"),
                    position: .offset(PagingMode.name("$skip", renamed: names.offset, folioDefault: "offset")))
            ]
        },
        sort: SortReading(key: "$orderby", repeats: false, orderKey: nil) { (values, _) throws(FolioError) -> String? in
            try values.first.map(odataOrderBy)
        },
        filter: nil, comparisonSuffixes: [],
        contentType: "application/json", contentRangeOnPages: false,
        page: { page in [UInt8](exactly: ODataPage(page: page, withItems: true)) },
        metadata: { page in [UInt8](exactly: ODataPage(page: page, withItems: false)) },
        aliases: { (parameter, options) throws(FolioError) -> [DialectAlias]? in
            try odataAlias(parameter, filterable: options.filterable)
        },
        headers: [(name: "OData-Version", value: "4.0")])

    /// `a desc,b asc,c` into `-a,b,c` (`asc` by default; spaces around items allowed).
    private static func odataOrderBy(_ value: String) throws(FolioError) -> String {
        try value.split(separator: ",", omittingEmptySubsequences: false).map { (item) throws(FolioError) -> String in
            let words = item.split(separator: " ")
            let direction = words.count == 2 ? words[1].lowercased() : "asc"
            guard (1...2).contains(words.count), !words[0].hasPrefix("-"), direction == "asc" || direction == "desc"
            else {
                throw .invalidParameter(
                    "$orderby '\(DetailText.clip(value))' must be properties separated by commas, each optionally "
                        + "followed by asc or desc")
            }
            return (direction == "desc" ? "-" : "") + words[0]
        }.joined(separator: ",")
    }

    /// `$filter`, `$select`, `$search`, `$count`. A `$filter` on a property that is not filterable is a 400: leaving
    /// one comparison of an expression out would answer another question.
    private static func odataAlias(
        _ parameter: QueryParameter, filterable: [String]
    ) throws(FolioError) -> [DialectAlias]? {
        switch parameter.key {
        case "$filter":
            return try ODataFilter.parse(parameter.value).map { (comparison) throws(FolioError) -> DialectAlias in
                guard filterable.contains(comparison.field) else {
                    throw .invalidParameter(
                        "$filter: '\(DetailText.clip(comparison.field))' is not a filterable property of this route")
                }
                return .filter(field: comparison.field, comparison: comparison.comparison, value: comparison.value)
            }
        case "$select":
            return [
                .fields(
                    parameter.value.split(separator: ",", omittingEmptySubsequences: false).map {
                        String($0.trimmingSpaces())
                    }.joined(separator: ","))
            ]
        case "$search":
            return [.search(parameter.value)]
        case "$deltatoken":
            return [.since(parameter.value)]
        case "$count":
            switch parameter.value {
            case "true": return [.withTotal]
            case "false": return []
            default: throw .invalidParameter("$count must be true or false")
            }
        default:
            return nil
        }
    }
}

/// `{"@odata.context":…,"@odata.count":N,"value":[…],"@odata.nextLink":URL}`: the count only with `$count=true`,
/// the next link only when more items follow; without `value` for `metadataOnly`. The last page of a route with
/// `idField` ends with `"@odata.deltaLink"` instead (docs/API.md, "OData deltas").
private struct ODataPage: ByteWritable {
    let context: String
    let count: Int?
    let items: PageItems?
    let next: String?
    let delta: String?

    init(page: DialectPage, withItems: Bool) {
        context = page.metadataContext
        count = page.withTotal ? page.paging.totalCount : nil
        items = withItems ? page.items : nil
        next = page.paging.next.map(page.links.url)
        delta = next == nil && withItems && page.idField != nil ? page.links.deltaURL(token: page.links.snapshot) : nil
    }

    func write(to sink: inout some ByteSink) {
        sink.write("{\"@odata.context\":")
        JSONText.writeString(context, to: &sink)
        if let count {
            sink.write(",\"@odata.count\":")
            sink.writeDecimal(count)
        }
        if let items {
            sink.write(",\"value\":")
            items.write(to: &sink)
        }
        if let next {
            sink.write(",\"@odata.nextLink\":")
            JSONText.writeString(next, to: &sink)
        }
        if let delta {
            sink.write(",\"@odata.deltaLink\":")
            JSONText.writeString(delta, to: &sink)
        }
        sink.write(UInt8(ascii: "}"))
    }
}
