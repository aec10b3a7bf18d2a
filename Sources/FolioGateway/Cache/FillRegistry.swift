import FolioConfiguration
import FolioEngine
import Synchronization

/// The fills in flight of every gateway of one server, by cache key, and each route's config
/// epoch; shared by the gateways a reload replaced and the one in force, like `RunningFills`
/// and `DropGenerations`.
///
/// A reload that leaves a route's config as it was must not cost its fills: a fill the
/// replaced gateway started is joined by the new gateway's requests and installs its list. A
/// reload that changes or removes a route moves the route's epoch, so fills started under the
/// old config are joined no more and install nothing.
final class FillRegistry: Sendable {
    /// A fill in flight; `id` tells it from a later fill of the same key, `generation` is its
    /// route's drop generation when it started (a fill a drop came after is joined no more),
    /// `epoch` the route's config epoch of the gateway that started it.
    struct Fill: Sendable {
        var id: Int
        var generation: Int
        var epoch: Int
        var task: Task<FillResult, any Error>
    }

    struct State: Sendable {
        var fills: [CacheKey: Fill] = [:]
        var nextFillID = 0
        fileprivate var routes: [String: (config: Configuration.Route, epoch: Int)] = [:]

        /// `route`'s config epoch in force.
        func epoch(of route: String) -> Int { routes[route]?.epoch ?? 0 }
    }

    let state = Mutex(State())

    init() {}

    /// Puts `routes` in force (a gateway is built with them) and returns each one's epoch: the
    /// same as before for a route whose config is unchanged, a new one for a changed or new
    /// route. Routes no longer configured get a new epoch too.
    func enter(_ routes: [Configuration.Route]) -> [String: Int] {
        state.withLock { state in
            var epochs: [String: Int] = [:]
            for (name, entry) in state.routes where !routes.contains(where: { $0.name == name }) {
                state.routes[name] = (entry.config, entry.epoch &+ 1)
            }
            for route in routes {
                let entry = state.routes[route.name]
                let epoch = entry.map { $0.config == route ? $0.epoch : $0.epoch &+ 1 } ?? 0
                state.routes[route.name] = (route, epoch)
                epochs[route.name] = epoch
            }
            return epochs
        }
    }

    /// `route`'s config epoch in force.
    func epoch(of route: String) -> Int {
        state.withLock { $0.epoch(of: route) }
    }
}
