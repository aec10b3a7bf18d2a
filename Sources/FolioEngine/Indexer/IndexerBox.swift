import Synchronization

/// Holds a fill's one indexer, so the sinks of its pages can feed it in place: a second copy of the
/// `ListIndexer` value would make its next append copy the whole store.
///
/// Downloaded chunks are fed in batches of up to `defaultBatchBytes`: the feeding task gathers
/// the next batch while a fill worker copies and scans the previous one and the other hashes
/// the one before it. Handing each 64 KiB read to a worker and back cost some seven thousand
/// thread switches per 100 MB, and the download stood still during each scan (BENCHMARKS.md,
/// "Cold fill").
///
/// A bad body still fails early, whatever the pace of its download: a batch that has gathered
/// for `defaultMaxBatchDelay` is handed over by a timer if no chunk fills it, and a scan that
/// fails opens `failure()` at once, so the download can be cancelled while it waits for bytes
/// that may never come (an error page answered with `200` that then stalls, a bad byte in a
/// burst followed by a stall). Every later call throws that error too.
///
/// Fed by one task at a time: a crawl hands it to one page download after another; the timer's
/// hand-over takes turns with it. The indexer itself never leaves the box: it is touched only by
/// the scan in flight or under `turn` (a reservation waits for the next hand-over, a body ends
/// after every scan), so no caller can read it while a worker writes it.
public final class IndexerBox: @unchecked Sendable {
    private var indexer: ListIndexer
    /// Bytes announced for the next body (`reserve`), reserved at the next hand-over, once no
    /// scan or hashing pass runs.
    private let reservation = Mutex(0)
    /// Fed chunks not handed to a worker yet.
    private var batch: [any IndexerChunk] = []
    private var batchedBytes = 0
    /// When the oldest chunk of `batch` was fed.
    private var batchStarted = ContinuousClock.now
    /// Whether a timer will look at the gathered batch.
    private var flushArmed = false
    /// The scan of the previous batch, until `drain` or the next batch has awaited it.
    private(set) var scanning: FillJob?
    /// The first error of a batch's scan, thrown by every later call.
    private let failed = Mutex<FolioError?>(nil)
    private let failedLatch = Latch()
    /// Serializes `feed`, `drain` and the timer's hand-over: each touches the batch and starts
    /// scans.
    private let turn = AsyncLock()
    private let batchBytes: Int
    private let maxBatchDelay: Duration

    /// Bytes gathered before they are handed to a worker: big enough that the hand-over is
    /// rare, small enough that the last batch's scan (about a millisecond) hardly delays the
    /// first page and that memory held beside the store stays small. 256 KiB and 4 MiB were
    /// slower on the benchmark list; 4 MiB also left 7 MB more resident after the fill.
    public static let defaultBatchBytes = 1 << 20
    /// How long a batch gathers chunks before it is scanned anyway: how late a bad byte may be
    /// found when the download slows or stalls after it.
    public static let defaultMaxBatchDelay = Duration.milliseconds(5)

    public init(
        _ indexer: ListIndexer, batchBytes: Int = defaultBatchBytes, maxBatchDelay: Duration = defaultMaxBatchDelay
    ) {
        self.indexer = indexer
        self.batchBytes = max(1, batchBytes)
        self.maxBatchDelay = maxBatchDelay
    }

    /// Takes the next bytes of the current body, scanned on a fill worker (off the cooperative
    /// pool, at a lower priority). Throws the error of any batch whose scan has ended, so a bad
    /// download is cancelled early.
    public func feed(_ chunk: some IndexerChunk) async throws(FolioError) {
        await turn.lock()
        defer { turn.unlock() }
        try throwFailure()
        let count = chunk.readableByteCount
        guard count > 0 else { return }
        if let scanning, scanning.isFinished { try await collect(scanning) }
        if batch.isEmpty {
            batchStarted = .now
            armFlush(after: maxBatchDelay)
        }
        batch.append(chunk)
        batchedBytes += count
        if batchedBytes >= batchBytes { try await handOver() }
    }

    /// Announces the next body's length (its `Content-Length`), so the store is allocated once
    /// (`ListIndexer.reserve`). Taken before that body's first bytes are copied in.
    public func reserve(additionalBytes: Int) {
        reservation.withLock { $0 += max(0, additionalBytes) }
    }

    /// Scans what is still batched and waits for every scan and hashing pass.
    public func drain() async throws(FolioError) {
        await turn.lock()
        defer { turn.unlock() }
        try await drainInTurn()
    }

    /// Scans what is still batched, waits for every scan, and ends the current body: it must be
    /// one complete JSON value. The next feed starts a new body.
    public func endBody() async throws(FolioError) -> IndexedBody {
        await turn.lock()
        defer { turn.unlock() }
        try await drainInTurn()
        return try indexer.endBody()
    }

    private func drainInTurn() async throws(FolioError) {
        try await handOver()
        if let scanning { try await collect(scanning) }
        await indexer.settle()
    }

    /// Returns a scan's error as soon as one has failed, even while nothing is fed; nil if the
    /// task is cancelled first. A download races it, to stop waiting for bytes the fill no
    /// longer wants.
    public func failure() async -> FolioError? {
        await failedLatch.wait()
        return failed.withLock { $0 }
    }

    /// Has a timer hand the gathered batch over once it is `delay` old, unless a feed has done
    /// so first. At most one timer is armed; it is short-lived and holds the box weakly.
    private func armFlush(after delay: Duration) {
        guard !flushArmed else { return }
        flushArmed = true
        Task.detached { [weak self] in
            try? await Task.sleep(for: delay)
            await self?.flush()
        }
    }

    private func flush() async {
        await turn.lock()
        defer { turn.unlock() }
        flushArmed = false
        guard !batch.isEmpty, failed.withLock({ $0 == nil }) else { return }
        let age = ContinuousClock.now - batchStarted
        guard age >= maxBatchDelay else { return armFlush(after: maxBatchDelay - age) }
        // A scan's error opens `failure()`; the feeding task throws it on its next call.
        try? await handOver()
    }

    private func throwFailure() throws(FolioError) {
        if let error = failed.withLock({ $0 }) { throw error }
    }

    /// Keeps the first error of a scan and tells `failure()`'s waiter.
    private func fail(_ error: FolioError) {
        let first = failed.withLock { failed in
            guard failed == nil else { return false }
            failed = error
            return true
        }
        if first { failedLatch.open() }
    }

    /// Starts the scan of the gathered batch once the previous one, and its hashing, are over
    /// (the store may grow, and a hashing pass reads it).
    private func handOver() async throws(FolioError) {
        try throwFailure()
        if let scanning { try await collect(scanning) }
        await indexer.settle()
        let reserved = reservation.withLock { reserved in
            defer { reserved = 0 }
            return reserved
        }
        if reserved > 0 { indexer.reserve(additionalBytes: reserved) }
        guard !batch.isEmpty else { return }
        let chunks = batch
        batch = []
        batchedBytes = 0
        scanning = FillJob.start { [self] () throws(FolioError) in
            do throws(FolioError) {
                for chunk in chunks {
                    try chunk.withUnsafeReadableBytes { (bytes) throws(FolioError) in try indexer.stage(bytes) }
                }
                try indexer.scanStaged(background: true)
            } catch {
                fail(error)
                throw error
            }
        }
    }

    /// Waits for `job` (the scan in flight) and keeps its error: the indexer is spent, and a
    /// later feed must not gather more for it.
    private func collect(_ job: FillJob) async throws(FolioError) {
        scanning = nil
        do throws(FolioError) {
            try await job.finished()
        } catch {
            fail(error)
            batch = []
            batchedBytes = 0
            throw error
        }
    }

    /// For tests: a copy of the indexer. Read only after `drain()`.
    var indexerForTesting: ListIndexer { indexer }

    /// The list and its token, once the last body has ended; the box is empty afterwards.
    public func finish() throws(FolioError) -> (list: ItemList, token: String) {
        precondition(scanning == nil && batch.isEmpty, "IndexerBox: drain() before finishing")
        let indexer = self.indexer
        self.indexer = ListIndexer(items: .root, limits: IndexLimits(maxBytes: 0), sort: [])
        return try indexer.finish()
    }
}

/// Bytes fed to an `IndexerBox`, read in place (no copy before the one into the store).
public protocol IndexerChunk: Sendable {
    var readableByteCount: Int { get }
    func withUnsafeReadableBytes<T, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> T) throws(E) -> T
}

extension Array: IndexerChunk where Element == UInt8 {
    public var readableByteCount: Int { count }

    public func withUnsafeReadableBytes<T, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> T) throws(E) -> T {
        // `Array.withUnsafeBytes` rethrows untyped; the buffer is valid for the call.
        let result = withUnsafeBytes { bytes in Result { () throws(E) in try body(bytes) } }
        return try result.get()
    }
}
