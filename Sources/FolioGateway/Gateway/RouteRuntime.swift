import FolioEngine

/// A configured route with everything the request path needs precomputed once per config.
///
/// A class: every request picks its route out of the gateway's array, and copying a struct
/// this size retained each of its strings and arrays (perf: ~1% of a cached page).
final class RouteRuntime: Sendable {
    let config: Configuration.Route
    let paging: PagingOptions
    let itemsPointer: JSONPointer
    let indexLimits: IndexLimits
    /// Lower-cased names of the `vary` headers.
    let varyNames: [String]
    let forwardQuery: Set<String>

    init(_ route: Configuration.Route, limits: Configuration.Limits) throws(FolioError) {
        self.config = route
        let p = route.paging
        self.paging = PagingOptions(
            defaultPageSize: p.pageSize,
            maxPageSize: p.maxPageSize,
            overMax: p.overMaxPageSize == .reject ? .reject : .clamp,
            names: ParameterNames(pageSize: p.params.pageSize, offset: p.params.offset, page: p.params.page),
            pageBase: p.pageBase,
            groupable: route.groupable
        )
        self.itemsPointer = try JSONPointer(route.items)
        self.indexLimits = IndexLimits(
            maxBytes: limits.maxUpstreamBytes, maxItems: limits.maxItems, maxDepth: limits.maxJSONDepth)
        self.varyNames = route.vary.map { $0.lowercased() }
        self.forwardQuery = Set(route.forwardQuery)
    }

    var name: String { config.name }
}
