import FolioRedis
import Logging
import Synchronization

/// Whether the shared store is usable now, counted and logged.
///
/// While Redis is unavailable, requests do not touch it at all (no request waits on a dead or
/// stopped server's timeout); a background ping (`SharedStoreService`) finds it back. One log
/// line marks each change between available and unavailable.
final class StoreHealth: Sendable {
    private let available = Atomic<Bool>(true)
    private let logger: Logger
    private let metrics: any StoreMetrics
    private let now: @Sendable () -> ContinuousClock.Instant
    /// Per operation, when a refusal was last logged and how many came since without a line.
    private let refusals = Mutex<[StoreOperation: (logged: ContinuousClock.Instant, since: Int)]>([:])

    /// A Redis that refuses (a read-only replica after a failover, out of memory) refuses every
    /// write until someone acts: one line per operation and interval, not one per command.
    static let refusalLogInterval = Duration.seconds(60)

    init(
        logger: Logger, metrics: any StoreMetrics,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.logger = logger
        self.metrics = metrics
        self.now = now
    }

    var isAvailable: Bool { available.load(ordering: .relaxed) }

    /// Counts a failure; the first one after a success marks the store unavailable. A server
    /// error answer (the connection works) or a failed check leaves it available.
    func failed(_ operation: StoreOperation, _ error: RedisError?) {
        metrics.storeFailed(operation)
        guard let error, !error.isServerError else {
            logRefusal(operation, error)
            return
        }
        if available.exchange(false, ordering: .relaxed) {
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
        if !available.exchange(true, ordering: .relaxed) {
            logger.notice("shared store available")
        }
    }
}
