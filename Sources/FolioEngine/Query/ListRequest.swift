/// What a client asked of a list route, once its query and `Range` header are read.
///
/// The slice is fixed here (offset and effective page size); which list it is cut from
/// (`sort`, `groupBy`, `beginsWith`, filters) is carried for the parts that order and section.
public struct ListRequest: Sendable, Hashable {
    /// How links name pages: by offset, or by page number if the client sent the page param.
    public enum Style: Sendable, Hashable { case offset, page }

    /// Start of the slice.
    public var offset: Int
    /// Effective page size, after clamping; for a `Range`, its width (clamped likewise).
    public var pageSize: Int
    public var style: Style
    /// How links name pages, as the request named its own (a dialect's names, docs/API.md, "Dialects"); nil:
    /// Folio's names in `style`.
    public var spelling: PageSpelling?
    public var metadataOnly: Bool
    public var snapshot: String?
    /// `?since=TOKEN`: the changes of the view from that snapshot to the newest (docs/API.md,
    /// "Changes between snapshots"); never kept in links.
    public var since: String?
    public var sort: String?
    public var groupBy: String?
    public var beginsWith: String?
    /// Groupable `?FIELD=value` filters, in the order sent.
    public var filters: [Filter]
    /// The `Range` being served (answered with 206), already clamped to `maxPageSize`; nil when
    /// there was none, it was ignored (malformed, or with `metadataOnly`).
    public var range: ItemRange?
    /// `?q=text`: a search in the route's `searchable` fields (docs/API.md, "Requests").
    public var q: String?
    /// `?fields=id,name`: the top-level members each item keeps (docs/API.md, "Requests"); nil: whole items.
    public var fields: [String]?
    /// The client's parameters that links keep, in the original order and encoding: all but
    /// the paging params (after renames), `snapshot` and `metadataOnly`.
    public var kept: [QueryParameter]
    /// A page named by an item's id (`stripe`'s `starting_after`/`ending_before`, docs/API.md, "More dialects"),
    /// which only the list can turn into an offset; nil for pages named by position.
    public var cursor: Cursor?
    /// The dialect's body leaves the total out (`strapi`'s `pagination[withCount]=false`).
    public var omitTotal = false
    /// The dialect's body carries the total it leaves out unasked (`odata`'s `$count=true`).
    public var withTotal = false

    /// The item a cursor page starts after or ends before, by its id's text.
    public enum Cursor: Sendable, Hashable {
        case after(String)
        case before(String)
    }

    public struct Filter: Sendable, Hashable {
        public let field: String
        public let value: String
        public let comparison: Comparison

        public init(field: String, value: String, comparison: Comparison = .equal) {
            self.field = field
            self.value = value
            self.comparison = comparison
        }
    }

    /// `?FIELD=v` (equal; repeated: any of) and `?FIELD[op]=v` (docs/API.md, "Requests").
    public enum Comparison: String, Sendable, Hashable, CaseIterable {
        case equal = "eq"
        case notEqual = "ne"
        case greater = "gt"
        case greaterOrEqual = "gte"
        case less = "lt"
        case lessOrEqual = "lte"
    }

    public init(
        offset: Int = 0, pageSize: Int, style: Style = .offset, metadataOnly: Bool = false,
        snapshot: String? = nil, sort: String? = nil, groupBy: String? = nil,
        beginsWith: String? = nil, filters: [Filter] = [], range: ItemRange? = nil,
        kept: [QueryParameter] = []
    ) {
        self.offset = offset
        self.pageSize = pageSize
        self.style = style
        self.metadataOnly = metadataOnly
        self.snapshot = snapshot
        self.sort = sort
        self.groupBy = groupBy
        self.beginsWith = beginsWith
        self.filters = filters
        self.range = range
        self.kept = kept
    }
}

extension ListRequest {
    /// A canonical text of everything that shapes the answer's body apart from the snapshot and
    /// the representation, for `ETag.make`: the kept parameters as sent, then the slice and the
    /// link style (`page=2` and `offset=50` differ: their links differ).
    public var normalizedQuery: String {
        var text = ""
        for parameter in kept {
            text += parameter.raw
            text += "&"
        }
        text += "#offset=\(offset)&pageSize=\(pageSize)&style=\(style == .page ? "page" : "offset")"
        switch cursor {
        case .after(let id)?: text += "&after=" + id
        case .before(let id)?: text += "&before=" + id
        case nil: break
        }
        return text
    }
}
