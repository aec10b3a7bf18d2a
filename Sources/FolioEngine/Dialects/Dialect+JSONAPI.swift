extension Dialect {
    /// JSON:API 1.1 (Ember Data, DRF-JSON:API clients): `page[number]` (first page 1) and `page[size]`, or
    /// `page[offset]` and `page[limit]` (links keep that style); Folio's `sort=a,-b`; `fields[TYPE]=a,b` for the
    /// route's type; `filter[FIELD]=v` and `filter[FIELD][OP]=v` with Folio's operators. Body
    /// `{"data":[{"type","id","attributes"}],"links":{…},"meta":{"pagination":{…}}}` as
    /// `application/vnd.api+json`, each item a resource object named by its id at `idField` (a string).
    ///
    /// Renames in `params` apply: `pageSize` renames `page[size]`, `page` `page[number]`, `offset` `page[offset]`.
    public static let jsonAPI = Dialect(
        name: "jsonapi",
        pagingModes: { names, _ in
            [
                PagingMode(
                    size: PagingMode.name("page[size]", renamed: names.pageSize, folioDefault: "pageSize"),
                    position: .page(
                        PagingMode.name("page[number]", renamed: names.page, folioDefault: "page"), base: 1)),
                PagingMode(
                    size: "page[limit]",
                    position: .offset(PagingMode.name("page[offset]", renamed: names.offset, folioDefault: "offset"))),
            ]
        },
        sort: .folio, filter: nil, comparisonSuffixes: [],
        contentType: "application/vnd.api+json", contentRangeOnPages: false,
        page: { page in [UInt8](exactly: JSONAPIPage(page: page, withItems: true)) },
        metadata: { page in [UInt8](exactly: JSONAPIPage(page: page, withItems: false)) },
        aliases: { (parameter, options) throws(FolioError) -> [DialectAlias]? in
            try jsonAPIAlias(parameter, type: options.resourceType)
        },
        needsIDs: true)

    /// `filter[f]=v`, `filter[f][op]=v` (`eq` is equality) and `fields[TYPE]=a,b` (another type's fields name
    /// nothing on this route).
    private static func jsonAPIAlias(_ parameter: QueryParameter, type: String) throws(FolioError) -> [DialectAlias]? {
        if let parts = BracketKey.parts(parameter.key, of: "filter") {
            guard (1...2).contains(parts.count), !parts[0].isEmpty else {
                throw .invalidParameter(
                    "\(DetailText.clip(parameter.key)) must be filter[FIELD] or filter[FIELD][OPERATOR]")
            }
            let comparison = try parts.count == 2 ? comparison(parts[1], in: parameter.key) : .equal
            return [.filter(field: String(parts[0]), comparison: comparison, value: parameter.value)]
        }
        if let parts = BracketKey.parts(parameter.key, of: "fields"), parts.count == 1 {
            return parts[0] == type ? [.fields(parameter.value)] : []
        }
        return nil
    }

    /// An operator of docs/API.md, "Requests" (`eq ne gt gte lt lte`).
    static func comparison(_ name: Substring, in key: String) throws(FolioError) -> ListRequest.Comparison {
        guard let comparison = ListRequest.Comparison(rawValue: String(name)) else {
            let known = ListRequest.Comparison.allCases.map(\.rawValue).joined(separator: ", ")
            throw .invalidParameter(
                "unknown filter operator '\(DetailText.clip(String(name)))' in '\(DetailText.clip(key))'; known: \(known)"
            )
        }
        return comparison
    }
}

/// `{"data":[…],"links":{"self","first","prev","next","last"},"meta":{"pagination":{…}}}`; without `data` for
/// `metadataOnly`. Page-number requests get `{"page","pages","count"}` (DRF-JSON:API's numbers: `pages` at least
/// 1), offset requests `{"count","limit","offset"}`.
private struct JSONAPIPage: ByteWritable {
    let resources: ResourceObjects?
    let links: [String?]
    let paging: Paging
    let offsetForm: Bool

    static let rels: [StaticString] = ["self", "first", "prev", "next", "last"]

    init(page: DialectPage, withItems: Bool) {
        paging = page.paging
        let url = page.links.url
        links = [paging.offset, paging.first, paging.previous, paging.next, paging.last].map { $0.map(url) }
        resources =
            withItems
            ? page.idField.map { ResourceObjects(page: page, idField: $0, type: page.resourceType, idAsString: true) }
            : nil
        if case .offset = page.links.spelling { offsetForm = true } else { offsetForm = false }
    }

    func write(to sink: inout some ByteSink) {
        sink.write(UInt8(ascii: "{"))
        if let resources {
            sink.write("\"data\":")
            resources.write(to: &sink)
            sink.write(UInt8(ascii: ","))
        }
        sink.write("\"links\":{")
        for (index, rel) in Self.rels.enumerated() {
            if index > 0 { sink.write(UInt8(ascii: ",")) }
            sink.write(UInt8(ascii: "\""))
            sink.write(rel)
            sink.write("\":")
            JSONText.writeLink(links[index], to: &sink)
        }
        sink.write("},\"meta\":{\"pagination\":{")
        if offsetForm {
            sink.write("\"count\":")
            sink.writeDecimal(paging.totalCount)
            sink.write(",\"limit\":")
            sink.writeDecimal(paging.pageSize)
            sink.write(",\"offset\":")
            sink.writeDecimal(paging.offset)
        } else {
            sink.write("\"page\":")
            sink.writeDecimal(paging.offset / paging.pageSize + 1)
            sink.write(",\"pages\":")
            sink.writeDecimal(max(paging.pageCount, 1))
            sink.write(",\"count\":")
            sink.writeDecimal(paging.totalCount)
        }
        sink.write("}}}")
    }
}
