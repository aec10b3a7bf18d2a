import FolioEngine
import HTTPTypes
import NIOCore

/// Which elements of a snapshot a list request sees, and in which order (docs/API.md, "Sorting",
/// "Section index"): the route's `sort` or `?sort=`, narrowed by `beginsWith` or `?FIELD=value`
/// filters; or a section index for `groupBy`. Validated before any upstream work.
struct ListSelection: Sendable {
    enum GroupBy: Sendable {
        case alphabetical(FieldPath)
        case field(name: String, path: FieldPath)
    }

    let sort: SortSpec
    let beginsWithTitle: String?
    let filters: [(path: FieldPath, comparison: ListRequest.Comparison, values: [String])]
    let groupBy: GroupBy?
    /// `?q=` and the fields it searches.
    let search: (query: String, fields: [FieldPath])?

    init(_ request: ListRequest, route: CompiledRoute) throws(FolioError) {
        if let text = request.sort {
            sort = try Self.sort(text, route: route)
        } else {
            sort = route.defaultSort
        }
        if let value = request.beginsWith {
            guard route.sectionKey != nil else {
                throw .invalidParameter("beginsWith needs a sectionKey, and this route has none")
            }
            guard let title = Folding.title(forBeginsWith: value) else {
                throw .invalidParameter(
                    "beginsWith '\(DetailText.clip(value))' does not fold to exactly one section title (one letter, or '#')"
                )
            }
            beginsWithTitle = title
        } else {
            beginsWithTitle = nil
        }
        if let query = request.q {
            guard !route.config.searchable.isEmpty else {
                throw .invalidParameter("q needs searchable fields, and this route has none")
            }
            search = (query, route.config.searchable)
        } else {
            search = nil
        }
        // One entry per field and comparison: repeated `?FIELD=` values are any of them. A
        // comparison is one of Folio's params (docs/API.md, "Requests": two values are 400), however a dialect
        // spells it: json-server's `price_gte` and Folio's `price[gte]` are one.
        var filters: [(path: FieldPath, comparison: ListRequest.Comparison, values: [String])] = []
        for filter in request.filters {
            guard let path = route.filterableFields[filter.field] else { continue }
            if let index = filters.firstIndex(where: { $0.path == path && $0.comparison == filter.comparison }) {
                guard filter.comparison == .equal else {
                    throw .duplicateParameter("\(filter.field)[\(filter.comparison.rawValue)]")
                }
                filters[index].values.append(filter.value)
            } else {
                filters.append((path, filter.comparison, [filter.value]))
            }
        }
        self.filters = filters
        if let field = request.groupBy {
            guard request.metadataOnly else {
                throw .invalidParameter("groupBy needs metadataOnly: a section index has no items")
            }
            if field == "alphabetical" {
                guard let key = route.sectionKey else {
                    throw .invalidParameter("groupBy=alphabetical needs a sectionKey, and this route has none")
                }
                groupBy = .alphabetical(key)
            } else if let path = route.groupableFields[field] {
                groupBy = .field(name: field, path: path)
            } else {
                let allowed = (route.sectionKey == nil ? [] : ["alphabetical"]) + route.config.groupable.map(\.text)
                throw .invalidParameter(
                    "groupBy '\(DetailText.clip(field))' is not allowed on this route; allowed: \(Self.list(allowed))")
            }
        } else {
            groupBy = nil
        }
    }

    /// `?sort=category,-price,name`: each key sortable, groupable or the section key, none
    /// empty or repeated (docs/API.md, "Requests"). It replaces the route's `sort`.
    static func sort(_ text: String, route: CompiledRoute) throws(FolioError) -> SortSpec {
        var fields: [String] = []
        var names: Set<String> = []
        for field in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            let name = field.hasPrefix("-") ? String(field.dropFirst()) : field
            guard !name.isEmpty else { throw .invalidParameter("sort '\(DetailText.clip(text))' has an empty key") }
            guard route.sortableFields.contains(name) else {
                throw .invalidParameter(
                    "sort '\(DetailText.clip(field))' is not allowed on this route; allowed: \(Self.list(route.sortableFields))"
                )
            }
            guard names.insert(name).inserted else {
                throw .invalidParameter("sort '\(DetailText.clip(text))' names '\(DetailText.clip(name))' twice")
            }
            fields.append(field)
        }
        return try SortSpec(parsing: fields)
    }

    /// Whether answering may build something the fill did not (an order, a section index, a
    /// filter), which then counts against `cache.maxBytes`.
    func buildsIndexes(route: CompiledRoute) -> Bool {
        groupBy != nil || beginsWithTitle != nil || !filters.isEmpty || search != nil || sort != route.defaultSort
    }

    /// The elements this request pages through. A filtered view is built once per snapshot
    /// and kept with it (`SnapshotIndexes.view`), so the next page of it is a lookup.
    func view(of snapshot: Snapshot) -> ListView {
        let indexes = snapshot.indexes
        guard beginsWithTitle != nil || !filters.isEmpty || search != nil else {
            return ListView(list: snapshot.list, order: indexes.order(sort))
        }
        let order = indexes.view(viewKey) {
            var order = indexes.order(sort)
            if let title = beginsWithTitle {
                order = indexes.elements(inSection: title, order: order)
            }
            return narrowed(order, indexes: indexes)
        }
        return ListView(list: snapshot.list, order: order)
    }

    /// What selects this request's view, as one text: the order, the section and every filter,
    /// each part length-prefixed so that no two selections give the same text.
    private var viewKey: String {
        var parts = [sort.texts.joined(separator: ","), beginsWithTitle ?? ""]
        for (path, comparison, values) in filters {
            parts += [path.text, comparison.rawValue, String(values.count)] + values
        }
        if let search { parts += ["q", search.query] + search.fields.map(\.text) }
        return parts.map { "\($0.utf8.count):\($0)" }.joined()
    }

    /// `order` (nil: upstream order) narrowed by the filters and `q`.
    private func narrowed(_ order: [UInt32]?, indexes: SnapshotIndexes) -> [UInt32]? {
        var order = order
        for (path, comparison, values) in filters {
            order = indexes.elements(where: path, comparison, values, order: order)
        }
        if let search {
            order = indexes.elements(matching: search.query, in: search.fields, order: order)
        }
        return order
    }

    /// The elements `beginsWith`, the filters and `q` keep, in upstream order; nil when there
    /// are none (a section index then describes the whole list).
    func filteredElements(of snapshot: Snapshot) -> [UInt32]? {
        guard beginsWithTitle != nil || !filters.isEmpty || search != nil else { return nil }
        let indexes = snapshot.indexes
        let section = beginsWithTitle.map { indexes.elements(inSection: $0, order: nil) }
        return narrowed(section, indexes: indexes) ?? (0..<UInt32(snapshot.list.count)).map { $0 }
    }

    private static func list(_ names: [String]) -> String {
        names.isEmpty ? "none" : names.joined(separator: ", ")
    }
}
