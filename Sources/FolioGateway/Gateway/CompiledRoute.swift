import FolioConfiguration
import FolioEngine
import Synchronization

/// A configured route with everything the request path needs precomputed once per config.
///
/// A class: every request picks its route out of the gateway's array, and copying a struct
/// this size retained each of its strings and arrays (perf: ~1% of a cached page).
final class CompiledRoute: Sendable {
    let config: Configuration.Route
    let paging: PagingOptions
    let itemsPointer: JSONPointer
    let indexLimits: IndexLimits
    /// Lower-cased names of the `vary` headers.
    let varyNames: [String]
    let forwardQuery: Set<String>
    /// The route's `sort`, the default order of its list.
    let defaultSort: SortSpec
    let sectionKey: FieldPath?
    /// Field names a client may sort by: `sortable`, plus the `sectionKey` and `groupable`
    /// fields, whose section offsets refer to that order.
    let sortableFields: [String]
    let groupableFields: [String: FieldPath]
    /// The fields `?FIELD=` and `?FIELD[op]=` filter on: groupable and filterable.
    let filterableFields: [String: FieldPath]
    /// This route's metric handles, created once per config.
    let metrics: RouteMetrics
    /// The longest a fill of this route can take (a crawl's `crawlTimeout`, or one response's
    /// connect and `upstreamTimeout`): how long a shared store's fill lock lasts.
    let fillTimeout: Duration
    /// Unique to this route of this config (never reused, unlike an object's address): answers
    /// kept in a snapshot are keyed by it, because a snapshot outlives a reload that may change
    /// how the route renders its pages.
    let renderID: Int
    /// The digest of the settings that shape this route's list, in each of its cache keys
    /// (`CacheKey.variant`).
    let listVariant: String
    /// Query plans already read for this route.
    let queryPlans = QueryPlanMemo()

    private static let renderIDs = Atomic<Int>(0)

    init(_ route: Configuration.Route, limits: Configuration.Limits, metrics: RouteMetrics) {
        self.config = route
        self.metrics = metrics
        self.renderID = Self.renderIDs.add(1, ordering: .relaxed).newValue
        self.fillTimeout =
            route.upstreamPaging == nil ? limits.connectTimeout + limits.upstreamTimeout : limits.crawlTimeout
        let p = route.paging
        self.paging = PagingOptions(
            defaultPageSize: p.pageSize,
            maxPageSize: p.maxPageSize,
            overMax: p.overMaxPageSize,
            names: p.params,
            pageBase: p.pageBase,
            groupable: route.groupable.map(\.text),
            filterable: route.filterable.map(\.text),
            dialect: p.dialect,
            resourceType: route.type ?? route.name
        )
        self.itemsPointer = route.items
        self.listVariant = Self.listVariant(route)
        self.indexLimits = IndexLimits(
            maxBytes: limits.maxUpstreamBytes, maxItems: limits.maxItems, maxDepth: limits.maxJSONDepth)
        self.varyNames = route.vary.map { $0.lowercased() }
        self.forwardQuery = Set(route.forwardQuery)
        self.defaultSort = route.sort
        self.sectionKey = route.sectionKey
        var sortable = route.sortable
        for field in [route.sectionKey].compactMap({ $0 }) + route.groupable where !sortable.contains(field.text) {
            sortable.append(field.text)
        }
        self.sortableFields = sortable
        var groupable: [String: FieldPath] = [:]
        for field in route.groupable { groupable[field.text] = field }
        self.groupableFields = groupable
        var filterable = groupable
        for field in route.filterable { filterable[field.text] = field }
        self.filterableFields = filterable
    }

    var name: String { config.name }

    /// 16 hex digits of SHA-256 over the settings that decide which list a cache key holds,
    /// besides what the key has already (upstream URL, `vary` values, partition): `items`,
    /// `sort`, how `upstreamPaging` walks the pages (not `maxPages` or `concurrency`, which
    /// decide whether and how fast, not what), `authorized` (whose credentials may have fetched
    /// a list an anonymous request gets) and the `vary` header names the values belong to.
    /// Written out field by field, each list with its count: never through a struct's
    /// `description`, which could change with Folio's version or print a collection in another
    /// order in each process.
    static func listVariant(_ route: Configuration.Route) -> String {
        var fields = ["items", route.items.description, "sort", String(route.sort.keys.count)] + route.sort.texts
        fields += ["authorized", route.authorized.rawValue, "vary", String(route.vary.count)]
        fields += route.vary.map { $0.lowercased() }
        if let paging = route.upstreamPaging {
            fields += [
                "paging", paging.style.rawValue, paging.nextField.description, paging.pageParam, paging.offsetParam,
                paging.sizeParam, String(paging.size), String(paging.firstPage),
                paging.totalField?.description ?? "\u{0}",
            ]
        }
        return FieldDigest.hex(of: fields, bytes: 8)
    }
}
