/// The names a route uses for its paging parameters (config `params`), e.g. `limit` for `pageSize`.
public struct ParameterNames: Sendable, Hashable {
    public var pageSize: String
    public var offset: String
    public var page: String

    public init(pageSize: String = "pageSize", offset: String = "offset", page: String = "page") {
        self.pageSize = pageSize
        self.offset = offset
        self.page = page
    }

    /// The three names, in a fixed order.
    public var all: [String] { [pageSize, offset, page] }
}

/// What to do with a page size above `maxPageSize` (config `overMaxPageSize`).
public enum OverMaxPageSize: String, Sendable, Hashable, CaseIterable {
    /// Serve `maxPageSize` items; links carry the clamped size.
    case clamp
    /// Answer 400, naming the maximum.
    case reject
}

/// A route's paging settings, as far as reading a request needs them.
public struct PagingOptions: Sendable, Hashable {
    public var defaultPageSize: Int
    public var maxPageSize: Int
    public var overMax: OverMaxPageSize
    public var names: ParameterNames
    /// The number of the first page for `page` (0 or 1).
    public var pageBase: Int
    /// Groupable field names (`groupBy=FIELD`); they filter too.
    public var groupable: [String]
    /// Field names usable as `?FIELD=value` and `?FIELD[op]=value` filters (the groupable and
    /// filterable ones); they count as Folio's own parameters.
    public var filterable: [String]
    /// How requests name pages, sort and filter, and how bodies are written (docs/API.md, "Dialects").
    public var dialect: Dialect
    /// JSON:API's resource type, which its `fields[TYPE]` names (the route's `type`, or its name).
    public var resourceType: String

    public init(
        defaultPageSize: Int = 25, maxPageSize: Int = 500, overMax: OverMaxPageSize = .clamp,
        names: ParameterNames = ParameterNames(), pageBase: Int = 0, groupable: [String] = [],
        filterable: [String] = [], dialect: Dialect = .folio, resourceType: String = "objects"
    ) {
        self.dialect = dialect
        self.resourceType = resourceType
        self.filterable = groupable + filterable.filter { !groupable.contains($0) }
        self.defaultPageSize = defaultPageSize
        self.maxPageSize = maxPageSize
        self.overMax = overMax
        self.names = names
        self.pageBase = pageBase
        self.groupable = groupable
    }
}
