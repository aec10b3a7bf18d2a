import FolioRedis
import Logging
import Synchronization

/// Whether the shared store is usable now, counted and logged.
///
/// While Redis is unavailable, requests do not touch it at all (no request waits on a dead or
/// stopped server's timeout); a background ping (`SharedStoreService`) finds it back. One log
/// line marks each change between available and unavailable; on a cluster, whose client tells
/// which shard was lost and when it is back (`shardChanged`), those lines say it instead for a
/// failure a node is named for (a shard's outage turns the store unavailable and available
/// again as its commands fail and pings succeed: one line per shard, not per turn).
final class StoreHealth: Sendable {
    private let available = Atomic<Bool>(true)
    /// Whether the outage in course was logged (so is its end).
    private let announced = Atomic<Bool>(false)
    /// A cluster: failures a node is named for are logged per shard.
    let logsShards: Bool
    private let logger: Logger
    private let metrics: any StoreMetrics
    private let now: @Sendable () -> ContinuousClock.Instant
    /// Per operation, when a refusal was last logged and how many came since without a line.
    private let refusals = Mutex<[StoreOperation: (logged: ContinuousClock.Instant, since: Int)]>([:])

    /// A Redis that refuses (a read-only replica after a failover, out of memory) refuses every
    /// write until someone acts: one line per operation and interval, not one per command.
    static let refusalLogInterval = Duration.seconds(60)

    init(
        logger: Logger, metrics: any StoreMetrics, logsShards: Bool = false,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.logsShards = logsShards
        self.logger = logger
        self.metrics = metrics
        self.now = now
    }

    var isAvailable: Bool { available.load(ordering: .relaxed) }

    /// Counts a failure; the first one after a success marks the store unavailable. A server
    /// error answer (the connection works) or a failed check leaves it available.
    func failed(_ operation: StoreOperation, _ error: RedisError?) {
        metrics.storeFailed(operation, node: error?.node)
        guard let error, !error.isServerError else {
            logRefusal(operation, error)
            return
        }
        if available.exchange(false, ordering: .relaxed), !(logsShards && error.node != nil) {
            announced.store(true, ordering: .relaxed)
            logger.error(
                "shared store unavailable",
                metadata: ["operation": "\(operation.rawValue)", "error": "\(error)"])
        }
    }

    /// Logs a refused answer or a failed check, at most once per operation and
    /// `refusalLogInterval` (the line says how many came since the last one); every one is
    /// counted in `folio_store_errors_total`.
    private func logRefusal(_ operation: StoreOperation, _ error: RedisError?) {
        let now = self.now()
        let since = refusals.withLock { refusals -> Int? in
            if let last = refusals[operation], now - last.logged < Self.refusalLogInterval {
                refusals[operation]?.since += 1
                return nil
            }
            let since = refusals[operation]?.since ?? 0
            refusals[operation] = (now, 0)
            return since
        }
        guard let since else { return }
        logger.warning(
            "shared store answer refused",
            metadata: [
                "operation": "\(operation.rawValue)", "error": "\(error.map { "\($0)" } ?? "bad snapshot")",
                "refused_since_last_line": .stringConvertible(since),
            ])
    }

    /// Marks the store available again after a successful call.
    func succeeded() {
        if !available.exchange(true, ordering: .relaxed), announced.exchange(false, ordering: .relaxed) {
            logger.notice("shared store available")
        }
    }

    /// A cluster's shard was lost or is back (`RedisClusterClient.onShardChange`): one line each.
    func shardChanged(_ change: ClusterShardChange) {
        if let lostNode = change.lostNode {
            logger.notice(
                "shared store shard back",
                metadata: ["slots": "\(change.slots)", "node": "\(change.node)", "lost_node": "\(lostNode)"])
        } else {
            logger.error(
                "shared store shard lost",
                metadata: [
                    "slots": "\(change.slots)", "node": "\(change.node)",
                    "error": "\(change.error.map { "\($0)" } ?? "")",
                ])
        }
    }
}
