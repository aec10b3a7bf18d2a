import FolioEngine
import FolioRedisStore

extension SharedSnapshotStore {
    /// The routes of the configuration in force (set by each gateway, reloads included).
    func describe(_ routes: [CompiledRoute]) {
        describe(Dictionary(routes.map { ($0.config.name, RouteShape($0)) }, uniquingKeysWith: { first, _ in first }))
    }
}

extension RouteShape {
    /// How `route`'s lists are shared: under its list variant, with its order and search columns
    /// built on a list loaded from Redis as a fill builds them.
    init(_ route: CompiledRoute) {
        let searchable = route.config.searchable
        self.init(
            variant: route.listVariant, sectionKey: route.sectionKey, defaultSort: route.defaultSort,
            retention: route.config.cache.snapshotRetention,
            prepare: { indexes in FillPipeline.prepareSearch(indexes, searchable) })
    }
}
