import Synchronization

/// Per route, a count of the events that make lists fetched or loaded before them obsolete
/// (drops: unsafe methods, purges, other replicas' drops): work records its route's count when
/// it starts and installs its list only if the count is the same when the list arrives.
///
/// `SnapshotCache` keeps one per server, shared by the gateways a reload replaced and the one in
/// force, like `RunningFills`: a drop that reaches a replaced gateway (a request still finishing
/// there) must stop the fills the gateway in force started before it, and the other way round.
/// `SharedSnapshotStore` keeps its own for its loads from Redis, also moved by a reload's
/// removal of a route.
final class DropGenerations: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    /// `route`'s count now.
    func value(of route: String) -> Int {
        counts.withLock { $0[route, default: 0] }
    }

    /// Counts a drop of `route`.
    func bump(_ route: String) {
        counts.withLock { $0[route, default: 0] &+= 1 }
    }
}
