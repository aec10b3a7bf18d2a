import Synchronization

/// The gateway serving new requests, swapped atomically by a reload.
///
/// Each request takes one `Generation` and finishes on it, so requests in flight during a reload
/// keep the config they started with. Generations replaced by a reload are kept as `retired`
/// until their requests are done, then their upstream client (when no newer generation shares
/// it) is shut down.
final class CurrentGateway: Sendable {
    /// One loaded config: the gateway and the requests it is answering.
    final class Generation: Sendable {
        let gateway: Gateway
        /// Requests that took this generation and have not returned yet.
        let inFlight = Atomic<Int>(0)

        init(_ gateway: Gateway) {
            self.gateway = gateway
        }

        var isIdle: Bool { inFlight.load(ordering: .acquiring) == 0 }
    }

    private struct State {
        var current: Generation
        var retired: [Generation] = []
        /// Clients that never served (a reload that failed after building one).
        var orphans: [UpstreamClient] = []
    }

    private let state: Mutex<State>
    /// Held while a reload builds and swaps a gateway, so two reloads never race.
    let reloading = Mutex(())

    init(_ gateway: Gateway) {
        state = Mutex(State(current: Generation(gateway)))
    }

    /// The generation new requests use.
    var current: Generation { state.withLock { $0.current } }

    var gateway: Gateway { current.gateway }

    /// Makes `gateway` current; the previous generation finishes its requests on its own.
    func replace(with gateway: Gateway) {
        state.withLock { state in
            state.retired.append(state.current)
            state.current = Generation(gateway)
        }
    }

    /// Requests in flight over every generation.
    var inFlight: Int {
        state.withLock { state in
            state.retired.reduce(state.current.inFlight.load(ordering: .relaxed)) {
                $0 + $1.inFlight.load(ordering: .relaxed)
            }
        }
    }

    var hasRetired: Bool { state.withLock { !$0.retired.isEmpty } }

    /// Hands a client that never served to the next sweep.
    func retire(_ client: UpstreamClient) {
        state.withLock { $0.orphans.append(client) }
    }

    /// Removes the retired generations that have no request left (all of them with `all`) and
    /// returns the upstream clients no remaining generation uses, to be shut down.
    func takeRetiredClients(all: Bool = false) -> [UpstreamClient] {
        state.withLock { state in
            var done: [Generation] = []
            state.retired.removeAll { generation in
                guard all || generation.isIdle else { return false }
                done.append(generation)
                return true
            }
            var inUse = [ObjectIdentifier(state.current.gateway.upstream)]
            if !all { inUse += state.retired.map { ObjectIdentifier($0.gateway.upstream) } }
            var clients: [ObjectIdentifier: UpstreamClient] = [:]
            for client in state.orphans { clients[ObjectIdentifier(client)] = client }
            state.orphans = []
            for generation in done where !inUse.contains(ObjectIdentifier(generation.gateway.upstream)) {
                clients[ObjectIdentifier(generation.gateway.upstream)] = generation.gateway.upstream
            }
            return Array(clients.values)
        }
    }
}
