import Synchronization

/// What this replica knows of its routes' drops (docs/SHARED-STORE.md, "Drops reach every
/// replica"), in one concept: a route's drop generation, a count that every drop moves.
///
/// - Its local drop generation moves with every drop this replica makes or hears of (its own,
///   another replica's event, the catch-up after a lost subscription) and with a reload's
///   removal of the route. A load from Redis reads it before asking and installs nothing once
///   it moved: it may hold the dropped list.
/// - Its drops not yet taken by Redis (`PendingDrops`): meanwhile Redis may still point at what
///   they removed, so the route is not loaded from there (`loadableGeneration`).
/// - Redis's shared drop generation of each route, as read when the events subscription last
///   came up, for the routes of which no drop has been heard or made since: after a lost
///   subscription, a route whose shared generation has not moved meanwhile missed no drop
///   (`catchUp`).
///
/// Pure state, no I/O: the store does the reading and the acting.
final class DropLedger: Sendable {
    private struct State {
        var generations: [String: Int] = [:]
        /// Shared drop generations read when the subscription last came up (nil: none read),
        /// forgotten per route by a drop made or heard since.
        var vouched: [String: Int64]?
        /// The events subscription failed since it last worked.
        var subscriptionLost = false
    }

    private let state = Mutex(State())
    /// This replica's drops until Redis took them; those it could not take wait for a replay.
    let pending = PendingDrops()

    /// `route`'s local drop generation: read before asking Redis for a list, checked before
    /// installing it.
    func generation(of route: String) -> Int {
        state.withLock { $0.generations[route, default: 0] }
    }

    /// `route`'s drop generation when its lists may be loaded from Redis now; nil while a drop
    /// of it is pending (Redis still points at what it removes). Read in this order (a drop is
    /// kept before its generation moves), a drop kept after the check still moves the
    /// generation, so the load installs nothing.
    func loadableGeneration(of route: String) -> Int? {
        let generation = generation(of: route)
        return pending.isPending(route) ? nil : generation
    }

    /// This replica drops `route`: the drop is kept until Redis takes it, and the generation
    /// moves. Returns the drop to send (the longest retention pending, and its ticket).
    func made(_ route: String, retention: Duration) -> PendingDrops.Drop {
        let drop = pending.keep(route, retention: retention)
        heard(route)
        return drop
    }

    /// A drop of `route` was heard (another replica's event) or made: the generation moves,
    /// and the shared generation read at subscription no longer vouches for the route.
    func heard(_ route: String) {
        state.withLock { state in
            _ = state.vouched?.removeValue(forKey: route)
            state.generations[route, default: 0] &+= 1
        }
    }

    /// A reload changed or removed `route`: loads that began before install nothing.
    func removed(_ route: String) {
        state.withLock { $0.generations[route, default: 0] &+= 1 }
    }

    /// The events subscription failed: drops announced until it is back are not heard.
    func subscriptionFailed() {
        state.withLock { $0.subscriptionLost = true }
    }

    /// The events subscription works (again); returns whether it had been lost. If it had, the
    /// generation of every route in `routes` moves: loads from Redis in flight read before the
    /// catch-up, and install nothing.
    func subscriptionBack(routes: some Sequence<String>) -> Bool {
        state.withLock { state in
            guard state.subscriptionLost else { return false }
            state.subscriptionLost = false
            for route in routes { state.generations[route, default: 0] &+= 1 }
            return true
        }
    }

    /// Keeps `shared` (each route's drop generation in Redis, just read; nil when the read
    /// failed) as what vouches for the routes from now on. After a lost subscription, returns
    /// the routes of `routes` that may have missed a drop meanwhile, and moves their
    /// generations: those whose shared generation moved since the subscription last came up,
    /// or that cannot be vouched for (a drop heard or made since, a generation not read).
    /// Without a loss, returns none.
    func catchUp(shared: [String: Int64]?, routes: [String], lost: Bool) -> [String] {
        state.withLock { state in
            let before = state.vouched
            state.vouched = shared
            guard lost else { return [] }
            let missed = routes.filter { route in
                guard let was = before?[route], let now = shared?[route] else { return true }
                return was != now
            }
            for route in missed { state.generations[route, default: 0] &+= 1 }
            return missed
        }
    }
}
