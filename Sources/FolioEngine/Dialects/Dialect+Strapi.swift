extension Dialect {
    /// Strapi v4's REST API (refine's strapi-v4 provider): `pagination[page]` (first page 1) and
    /// `pagination[pageSize]`, or `pagination[start]` and `pagination[limit]` (links keep that style);
    /// `pagination[withCount]=false`; `sort=a:desc,b` or `sort[0]=a:desc&sort[1]=b`; `filters[f][$eq]=v` with `$ne
    /// $gt $gte $lt $lte`, `$in` (`filters[f][$in][0]=a`); `fields[0]=a&fields[1]=b`. Body
    /// `{"data":[{"id","attributes"}],"meta":{"pagination":{…}}}`, each id as the upstream wrote it.
    ///
    /// Renames in `params` apply: `pageSize` renames `pagination[pageSize]`, `page` `pagination[page]`, `offset`
    /// `pagination[start]`.
    public static let strapi = Dialect(
        name: "strapi",
        pagingModes: { names, _ in
            [
                PagingMode(
                    size: PagingMode.name("pagination[pageSize]", renamed: names.pageSize, folioDefault: "pageSize"),
                    position: .page(
                        PagingMode.name("pagination[page]", renamed: names.page, folioDefault: "page"), base: 1)),
                PagingMode(
                    size: "pagination[limit]",
                    position: .offset(
                        PagingMode.name("pagination[start]", renamed: names.offset, folioDefault: "offset"))),
            ]
        },
        sort: SortReading(key: "sort", repeats: false, orderKey: nil) { (values, _) throws(FolioError) -> String? in
            guard !values.isEmpty else { return nil }
            return try values.map(strapiSort).joined(separator: ",")
        },
        filter: nil, comparisonSuffixes: [],
        contentType: "application/json", contentRangeOnPages: false,
        page: { page in [UInt8](exactly: StrapiPage(page: page, withItems: true)) },
        metadata: { page in [UInt8](exactly: StrapiPage(page: page, withItems: false)) },
        aliases: { (parameter, _) throws(FolioError) -> [DialectAlias]? in try strapiAlias(parameter) },
        needsIDs: true)

    /// `a:desc,b` into `-a,b` (directions case-insensitive; none: ascending).
    private static func strapiSort(_ value: String) throws(FolioError) -> String {
        try value.split(separator: ",", omittingEmptySubsequences: false).map { (key) throws(FolioError) -> String in
            let parts = key.split(separator: ":", omittingEmptySubsequences: false)
            let direction = parts.count == 2 ? parts[1].lowercased() : "asc"
            guard (1...2).contains(parts.count), !parts[0].isEmpty, !parts[0].hasPrefix("-"),
                direction == "asc" || direction == "desc"
            else {
                throw .invalidParameter(
                    "sort '\(DetailText.clip(value))' must be fields separated by commas, each optionally followed by "
                        + ":asc or :desc")
            }
            return (direction == "desc" ? "-" : "") + parts[0]
        }.joined(separator: ",")
    }

    /// `filters[f][$op]=v`, `filters[f][$in][i]=v`, `filters[f]=v`; `sort[i]`, `fields[i]`; `pagination[withCount]`.
    private static func strapiAlias(_ parameter: QueryParameter) throws(FolioError) -> [DialectAlias]? {
        let key = parameter.key
        if let parts = BracketKey.parts(key, of: "filters") {
            guard !parts.isEmpty, !parts[0].isEmpty, parts.count <= 3 else {
                throw .invalidParameter("\(DetailText.clip(key)) must be filters[FIELD][$OPERATOR]")
            }
            let field = String(parts[0])
            guard parts.count > 1 else { return [.filter(field: field, comparison: .equal, value: parameter.value)] }
            if parts[1] == "$in" {
                guard parts.count == 2 || Int(parts[2]) != nil else {
                    throw .invalidParameter("\(DetailText.clip(key)) must be filters[FIELD][$in][INDEX]")
                }
                return [.filter(field: field, comparison: .equal, value: parameter.value)]
            }
            guard parts.count == 2, parts[1].hasPrefix("$"),
                let comparison = ListRequest.Comparison(rawValue: String(parts[1].dropFirst()))
            else {
                throw .invalidParameter(
                    "unknown filter operator '\(DetailText.clip(String(parts.dropFirst().joined(separator: "]["))))' "
                        + "in '\(DetailText.clip(key))'; known: $eq, $ne, $gt, $gte, $lt, $lte, $in")
            }
            return [.filter(field: field, comparison: comparison, value: parameter.value)]
        }
        if let parts = BracketKey.parts(key, of: "sort"), parts.count == 1, Int(parts[0]) != nil {
            return [.sort(parameter.value)]
        }
        if let parts = BracketKey.parts(key, of: "fields"), parts.count == 1, Int(parts[0]) != nil {
            return [.moreFields(parameter.value)]
        }
        if key == "pagination[withCount]" {
            switch parameter.value {
            case "false": return [.omitTotal]
            case "true": return []
            default: throw .invalidParameter("pagination[withCount] must be true or false")
            }
        }
        return nil
    }
}

/// `{"data":[…],"meta":{"pagination":{"page","pageSize","pageCount","total"}}}` (offset requests: `{"start",
/// "limit","total"}`; `withCount=false`: no `pageCount`, no `total`); without `data` for `metadataOnly`.
private struct StrapiPage: ByteWritable {
    let resources: ResourceObjects?
    let paging: Paging
    let offsetForm: Bool
    let withCount: Bool

    init(page: DialectPage, withItems: Bool) {
        paging = page.paging
        resources =
            withItems
            ? page.idField.map { ResourceObjects(page: page, idField: $0, type: nil, idAsString: false) } : nil
        if case .offset = page.links.spelling { offsetForm = true } else { offsetForm = false }
        withCount = !page.omitTotal
    }

    func write(to sink: inout some ByteSink) {
        sink.write(UInt8(ascii: "{"))
        if let resources {
            sink.write("\"data\":")
            resources.write(to: &sink)
            sink.write(UInt8(ascii: ","))
        }
        sink.write("\"meta\":{\"pagination\":{")
        if offsetForm {
            sink.write("\"start\":")
            sink.writeDecimal(paging.offset)
            sink.write(",\"limit\":")
            sink.writeDecimal(paging.pageSize)
        } else {
            sink.write("\"page\":")
            sink.writeDecimal(paging.offset / paging.pageSize + 1)
            sink.write(",\"pageSize\":")
            sink.writeDecimal(paging.pageSize)
            if withCount {
                sink.write(",\"pageCount\":")
                sink.writeDecimal(paging.pageCount)
            }
        }
        if withCount {
            sink.write(",\"total\":")
            sink.writeDecimal(paging.totalCount)
        }
        sink.write("}}}")
    }
}
