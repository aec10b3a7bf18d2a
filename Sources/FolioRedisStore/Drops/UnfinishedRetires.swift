import Synchronization

/// Retention steps of drops that failed (`DropSync.retire`). Until one succeeds, the
/// snapshots a drop's pointers named keep the expiry they had as newest lists, so pinned links
/// to a purged list would outlive `snapshotRetention`; the probe sends them again. A step that
/// failed `maxAttempts` times is given up (logged): its snapshots expire on their own.
final class UnfinishedRetires: Sendable {
    struct Retire: Sendable {
        var snapshots: [RedisSnapshots.RetiredSnapshot]
        var retention: Duration
        /// When the drop superseded them (wall-clock milliseconds): a late retire keeps them
        /// only for what is left of `retention`.
        var atMilliseconds: Int64
        /// Failed sends so far.
        var attempts: Int
    }

    /// Sends before a retire is given up: about a minute of probes while Redis is available.
    static let maxAttempts = 60

    private let retires = Mutex<[Retire]>([])

    /// Keeps `retire` for the probe; false when it failed too often (it is dropped).
    func keep(_ retire: Retire) -> Bool {
        guard retire.attempts < Self.maxAttempts else { return false }
        retires.withLock { $0.append(retire) }
        return true
    }

    /// Every retire kept, in order; they are no longer kept.
    func takeAll() -> [Retire] {
        retires.withLock { retires in
            defer { retires = [] }
            return retires
        }
    }

    var isEmpty: Bool { retires.withLock { $0.isEmpty } }
}
