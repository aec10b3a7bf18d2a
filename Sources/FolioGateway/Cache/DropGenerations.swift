import Synchronization

/// Per route, how many drops there have been (unsafe methods, purges, other replicas' drops):
/// a fill records its route's count when it starts and installs its list only if the count is
/// the same when the list arrives.
///
/// One per server, shared by the gateways a reload replaced and the one in force, like
/// `RunningFills`: a drop that reaches a replaced gateway (a request still finishing there)
/// must stop the fills the gateway in force started before it, and the other way round.
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
