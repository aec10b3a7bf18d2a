import Synchronization

/// Drops of this replica that Redis has not taken yet, by route (docs/DESIGN.md, "The shared
/// store in parts"). A drop is kept before its local part and stays until Redis removed the route's
/// newest pointers and the drop was announced: meanwhile Redis may still point at what it
/// removed, so the route is not loaded from there.
/// Each keep gets a ticket, so an acknowledgement removes only the drop it answers, never one
/// kept after it. A drop that could not be sent (Redis unavailable, or refusing) is marked
/// failed, for `DropSync.replay` to send again.
final class PendingDrops: Sendable {
    struct Drop: Equatable, Sendable {
        /// The longest retention asked by the drops it stands for.
        var retention: Duration
        /// The newest keep's ticket.
        var ticket: Int
        /// The newest keep's send failed, or was not tried: only a replay sends it (a new keep
        /// sends itself, carrying the longest retention, so it starts as not failed).
        var failed: Bool
    }

    private struct State {
        var drops: [String: Drop] = [:]
        var nextTicket = 0
    }

    private let state = Mutex(State())

    /// Keeps a drop of `route`, merged with one already pending; returns the drop to send (the
    /// longest retention pending, and its ticket).
    func keep(_ route: String, retention: Duration) -> Drop {
        state.withLock { state in
            state.nextTicket += 1
            let drop = Drop(
                retention: max(state.drops[route]?.retention ?? .zero, retention), ticket: state.nextTicket,
                failed: false)
            state.drops[route] = drop
            return drop
        }
    }

    /// Redis took the drop with `ticket` (and the retention it carried then): pending no more,
    /// unless a drop was kept after it.
    func sent(_ route: String, ticket: Int) {
        state.withLock { state in
            if state.drops[route]?.ticket == ticket { state.drops[route] = nil }
        }
    }

    /// The drop with `ticket` was not taken: a replay sends it (a later keep sends itself).
    func failed(_ route: String, ticket: Int) {
        state.withLock { state in
            if state.drops[route]?.ticket == ticket { state.drops[route]?.failed = true }
        }
    }

    func isPending(_ route: String) -> Bool {
        state.withLock { $0.drops[route] != nil }
    }

    /// The drops a replay must send, with the tickets they have now.
    var failedDrops: [String: Drop] {
        state.withLock { $0.drops.filter(\.value.failed) }
    }
}
