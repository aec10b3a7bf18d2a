extension Dialect {
    /// react-admin's `ra-data-simple-rest`: `range=[0,24]` (a JSON array, both ends included),
    /// `sort=["title","ASC"]`, `filter={"category":"tools","id":[1,2],"q":"oak"}` (equality; an
    /// array means any of; `q` is the search). The body is the bare array, with
    /// `Content-Range: <itemsKey> 0-24/319` on the `200`.
    public static let simpleRest = Dialect(
        name: "simplerest",
        pagingModes: { _, _ in [PagingMode(size: nil, position: .range("range"))] },
        sort: SortReading(key: "sort", repeats: false, orderKey: nil) { (values, _) throws(FolioError) -> String? in
            try values.first.map(simpleRestSort)
        },
        filter: FilterReading(key: "filter") {
            (value, filterable) throws(FolioError) -> (filters: [ListRequest.Filter], q: String?) in
            try simpleRestFilter(value, filterable: filterable)
        },
        comparisonSuffixes: [],
        contentType: "application/json", contentRangeOnPages: true,
        page: { page in PageWriter.bareArray(view: page.view, items: page.paging.items, fields: page.fields) },
        metadata: { page in PageWriter.metadata(paging: page.paging, links: page.links) })

    /// `["title","ASC"]` into `title`, `["title","DESC"]` into `-title` (direction case-insensitive).
    /// The field is a name: one spelled with Folio's `-` would turn the order round unasked.
    private static func simpleRestSort(_ value: String) throws(FolioError) -> String {
        guard case .array(let parts)? = QueryJSON.parse(value), parts.count == 2,
            case .string(let field) = parts[0], case .string(let direction) = parts[1],
            !field.isEmpty, !field.hasPrefix("-"), ["asc", "desc"].contains(direction.lowercased())
        else {
            throw .invalidParameter(
                "sort must be a JSON array [\"field\",\"ASC\"] or [\"field\",\"DESC\"], got \(DetailText.clip(value))")
        }
        return (direction.lowercased() == "desc" ? "-" : "") + field
    }

    /// `{"field":v,"field":[v,w],"q":"text"}`: equality filters on filterable fields (strings,
    /// numbers, booleans; an array: any of, at least one), the search. Other fields are ignored,
    /// as `?FIELD=v` is on a field that is not filterable.
    private static func simpleRestFilter(
        _ value: String, filterable: [String]
    ) throws(FolioError) -> (filters: [ListRequest.Filter], q: String?) {
        guard case .object(let members)? = QueryJSON.parse(value) else {
            throw .invalidParameter("filter must be a JSON object, got \(DetailText.clip(value))")
        }
        var filters: [ListRequest.Filter] = []
        var q: String?
        for (key, member) in members {
            if key == "q" {
                guard case .string(let text) = member, q == nil else {
                    throw .invalidParameter("filter's q must be one string")
                }
                q = text
                continue
            }
            guard filterable.contains(key) else { continue }
            let values: [QueryJSON]
            if case .array(let elements) = member { values = elements } else { values = [member] }
            let texts = values.compactMap(\.scalarText)
            guard !texts.isEmpty, texts.count == values.count else {
                throw .invalidParameter(
                    "filter's \(key) must be a string, number or boolean, or a non-empty array of them")
            }
            guard !filters.contains(where: { $0.field == key }) else { throw .duplicateParameter("filter's \(key)") }
            filters += texts.map { ListRequest.Filter(field: key, value: $0) }
        }
        return (filters, q)
    }
}
