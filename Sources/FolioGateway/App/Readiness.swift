import Synchronization

/// Whether the gateway should receive traffic: once the client listener is up, and until
/// draining starts, so `/readyz` fails before the listener closes.
public final class Readiness: Sendable {
    private let listening = Atomic<Bool>(false)
    private let draining = Atomic<Bool>(false)

    public init() {}

    public var isReady: Bool { listening.load(ordering: .relaxed) && !draining.load(ordering: .relaxed) }

    /// Called when the client listener is bound.
    public func markListening() { listening.store(true, ordering: .relaxed) }

    public func startDraining() { draining.store(true, ordering: .relaxed) }
}
