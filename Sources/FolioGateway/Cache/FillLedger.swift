import FolioConfiguration
import FolioEngine
import Synchronization

/// The fills of every gateway of one server: the one in flight per cache key, each route's
/// drop generation and config epoch, and how many fill tasks have not ended. A reload's gateway
/// gets its predecessor's ledger (`Gateway.init(succeeding:)`), so these outlive a reload.
///
/// A drop (unsafe method, purge, another replica's drop) moves its route's drop generation; a
/// reload that changes or removes a route moves its config epoch. A fill is stamped with both
/// when it starts: it is joined only while they hold, and installs its list only if neither
/// moved meanwhile (`missed`). So a drop that reaches a replaced gateway (a request still
/// finishing there) stops the fills the gateway in force began before it, and the other way
/// round; and a reload that leaves a route as it was costs none of its fills: the new
/// gateway's requests join the fills the old one started.
final class FillLedger: Sendable {
    /// What a fill was started under: `id` tells it from a later fill of the same key.
    struct Stamp: Sendable, Equatable {
        var id: Int
        /// The route's drop generation when the fill started.
        var generation: Int
        /// The route's config epoch of the gateway that started it.
        var epoch: Int
    }

    /// What came since a fill began: a drop, or a reload that changed or removed its route.
    enum Missed: Sendable, Equatable { case drop, removal }

    private struct Fill {
        var stamp: Stamp
        var task: Task<FillResult, any Error>
    }

    private struct State {
        var fills: [CacheKey: Fill] = [:]
        var nextID = 0
        var running = 0
        var generations: [String: Int] = [:]
        var routes: [String: (config: Configuration.Route, epoch: Int)] = [:]

        func generation(of route: String) -> Int { generations[route, default: 0] }
        func epoch(of route: String) -> Int { routes[route]?.epoch ?? 0 }
    }

    private let state = Mutex(State())

    init() {}

    /// Puts `routes` in force (a gateway is built with them) and returns each one's config
    /// epoch: the same as before for a route whose config is unchanged, a new one for a changed
    /// or new route. Routes no longer configured get a new epoch too.
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

    /// The fill in flight for `key` when it was started at the route's drop generation and at
    /// `epoch` (the caller's gateway's config epoch of the route; nil: the one in force);
    /// otherwise a new one, which `start` makes with its stamp and which replaces the old one
    /// for later callers. Returns the task and whether it was joined.
    ///
    /// One lock over the look and the start: a caller that read an older generation never
    /// replaces a fill a later caller started after a drop.
    func fill(
        _ key: CacheKey, epoch: Int?, start: (Stamp) -> Task<FillResult, any Error>
    ) -> (task: Task<FillResult, any Error>, joined: Bool) {
        state.withLock { state in
            let generation = state.generation(of: key.route)
            let epoch = epoch ?? state.epoch(of: key.route)
            if let fill = state.fills[key], fill.stamp.generation == generation, fill.stamp.epoch == epoch {
                return (fill.task, true)
            }
            let stamp = Stamp(id: state.nextID, generation: generation, epoch: epoch)
            state.nextID &+= 1
            // Counted before the task exists, so its `ended` can only come after.
            state.running += 1
            let task = start(stamp)
            state.fills[key] = Fill(stamp: stamp, task: task)
            return (task, false)
        }
    }

    /// The fill of `key` stamped `stamp` ended: it is forgotten unless a drop or reload already
    /// did and a later fill took its place.
    func ended(_ key: CacheKey, _ stamp: Stamp) {
        state.withLock { state in
            if state.fills[key]?.stamp.id == stamp.id { state.fills[key] = nil }
            state.running -= 1
        }
    }

    /// What moved since a fill of `key` stamped `stamp` began, if anything.
    func missed(_ key: CacheKey, since stamp: Stamp) -> Missed? {
        state.withLock { state in
            if state.generation(of: key.route) != stamp.generation { return .drop }
            if state.epoch(of: key.route) != stamp.epoch { return .removal }
            return nil
        }
    }

    /// Moves `route`'s drop generation: its fills in flight finish for the requests that joined
    /// them, but install nothing, and no later request joins them.
    func drop(_ route: String) {
        state.withLock { $0.generations[route, default: 0] &+= 1 }
    }

    /// `route`'s drop generation now.
    func generation(of route: String) -> Int {
        state.withLock { $0.generation(of: route) }
    }

    /// `route`'s config epoch in force.
    func epoch(of route: String) -> Int {
        state.withLock { $0.epoch(of: route) }
    }

    /// Fill tasks not ended (`folio_fills_in_flight`): those a drop forgot and those of replaced
    /// gateways included.
    var running: Int {
        state.withLock { $0.running }
    }
}
