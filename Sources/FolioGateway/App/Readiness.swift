import Synchronization

/// Whether the gateway should receive traffic: false once draining starts, so `/readyz`
/// fails before the listener closes.
public final class Readiness: Sendable {
    private let draining = Atomic<Bool>(false)

    public init() {}

    public var isReady: Bool { !draining.load(ordering: .relaxed) }

    public func startDraining() { draining.store(true, ordering: .relaxed) }
}
