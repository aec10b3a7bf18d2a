/// Holds a fill's one indexer, so the sinks of its pages can feed it in place: a second copy of the
/// `ListIndexer` value would make its next append copy the whole store.
///
/// Downloaded chunks are fed in batches of up to `defaultBatchBytes`: the feeding task gathers
/// the next batch while a fill worker copies and scans the previous one and the other hashes
/// the one before it. Handing each 64 KiB read to a worker and back cost some seven thousand
/// thread switches per 100 MB, and the download stood still during each scan (BENCHMARKS.md,
/// "Cold fill").
///
/// A bad body still fails early: a body's first chunk is scanned before the next is read (an
/// error page answered with `200` fails at once), and so is a chunk that comes after a pause of
/// `defaultMaxBatchDelay` while the worker is idle (a slow download); a batch that has waited
/// that long goes to an idle worker with the next chunk, and a finished batch's error is thrown
/// by the next `feed`. Not covered: a bad byte in a fast burst that the upstream follows with a
/// stall; it is found when the download goes on, or at `upstreamTimeout` (504).
///
/// Used by one task at a time: a crawl hands it to one page download after another. `drain()`
/// must be awaited before the indexer is read or a body ended.
public final class IndexerBox: @unchecked Sendable {
    public var indexer: ListIndexer
    /// Fed chunks not handed to a worker yet.
    private var batch: [any IndexerChunk] = []
    private var batchedBytes = 0
    /// When the oldest chunk of `batch` was fed, and when the last chunk was.
    private var batchStarted = ContinuousClock.now
    private var lastFed = ContinuousClock.now
    /// Whether the current body's first chunk has been fed (false again after `drain`).
    private var bodyStarted = false
    /// The scan of the previous batch, until `drain` or the next batch has awaited it.
    private(set) var scanning: FillJob?
    /// The error of a batch's scan, thrown by every later call.
    private var failure: FolioError?
    private let batchBytes: Int
    private let maxBatchDelay: Duration

    /// Bytes gathered before they are handed to a worker: big enough that the hand-over is
    /// rare, small enough that the last batch's scan (about a millisecond) hardly delays the
    /// first page and that memory held beside the store stays small. 256 KiB and 4 MiB were
    /// slower on the benchmark list; 4 MiB also left 7 MB more resident after the fill.
    public static let defaultBatchBytes = 1 << 20
    /// How long a batch gathers a slow download's chunks before an idle worker takes it.
    public static let defaultMaxBatchDelay = Duration.milliseconds(5)

    public init(
        _ indexer: ListIndexer, batchBytes: Int = defaultBatchBytes, maxBatchDelay: Duration = defaultMaxBatchDelay
    ) {
        self.indexer = indexer
        self.batchBytes = max(1, batchBytes)
        self.maxBatchDelay = maxBatchDelay
    }

    /// Takes the next bytes of the current body, scanned on a fill worker (off the cooperative
    /// pool, at a lower priority). Throws the error of the body's first chunk, and of any batch
    /// whose scan has ended, so a bad download is cancelled early.
    public func feed(_ chunk: some IndexerChunk) async throws(FolioError) {
        if let failure { throw failure }
        let count = chunk.readableByteCount
        guard count > 0 else { return }
        let now = ContinuousClock.now
        let gap = now - lastFed
        lastFed = now
        if let scanning, scanning.isFinished { try await collect(scanning) }
        if batch.isEmpty { batchStarted = now }
        batch.append(chunk)
        batchedBytes += count
        if !bodyStarted || (scanning == nil && gap >= maxBatchDelay) {
            // A body's first chunk, or one a slow download sent after a pause while the worker
            // is idle: scanned before the next is read, so its error stops the download at once.
            bodyStarted = true
            try await handOver()
            if let scanning { try await collect(scanning) }
        } else if batchedBytes >= batchBytes || (scanning == nil && now - batchStarted >= maxBatchDelay) {
            try await handOver()
        }
    }

    /// Scans what is still batched and waits for every scan and hashing pass: afterwards the
    /// indexer may be read, a body ended, or the box finished; the next `feed` starts a body.
    public func drain() async throws(FolioError) {
        try await handOver()
        if let scanning { try await collect(scanning) }
        await indexer.settle()
        bodyStarted = false
    }

    /// Starts the scan of the gathered batch once the previous one, and its hashing, are over
    /// (the store may grow, and a hashing pass reads it).
    private func handOver() async throws(FolioError) {
        if let failure { throw failure }
        if let scanning { try await collect(scanning) }
        await indexer.settle()
        guard !batch.isEmpty else { return }
        let chunks = batch
        batch = []
        batchedBytes = 0
        scanning = FillJob.start { [self] () throws(FolioError) in
            for chunk in chunks {
                try chunk.withUnsafeReadableBytes { (bytes) throws(FolioError) in try indexer.stage(bytes) }
            }
            try indexer.scanStaged(background: true)
        }
    }

    /// Waits for `job` (the scan in flight) and keeps its error: the indexer is spent, and a
    /// later feed must not gather more for it.
    private func collect(_ job: FillJob) async throws(FolioError) {
        scanning = nil
        do throws(FolioError) {
            try await job.finished()
        } catch {
            failure = error
            batch = []
            batchedBytes = 0
            throw error
        }
    }

    /// The list and its token; the box is empty afterwards.
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
