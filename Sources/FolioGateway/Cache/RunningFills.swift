import Synchronization

/// Fill tasks not finished yet, over every gateway of one server (`folio_fills_in_flight`):
/// one per `GatewayMetrics`, which a reload's gateway shares with its predecessor, so fills
/// still running on a replaced gateway, or forgotten by a drop, count until they end.
final class RunningFills: Sendable {
    private let count = Atomic<Int>(0)

    func started() { count.add(1, ordering: .relaxed) }

    func ended() { count.subtract(1, ordering: .relaxed) }

    var value: Int { count.load(ordering: .relaxed) }
}
