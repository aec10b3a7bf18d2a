import FolioEngine
import NIOCore
import Synchronization

/// Streams a downloaded body into a fill's indexer without holding up the download
/// (docs/DESIGN.md, "Fill pipeline").
///
/// `receive` queues the chunk and returns at once (it waits only while `limit` bytes are
/// queued), so the upstream socket is read at the network's pace. A chain of steps on the fill
/// workers indexes what is queued, up to `batch` bytes at a time: each step copies its chunks
/// into the store, starts hashing the previous step's elements on another worker and scans its
/// own; the next step starts on whichever worker finishes last, never going back through a
/// task. Indexing each chunk from the download's task instead (a wait per chunk for a worker,
/// then for the task to be scheduled again) left both cores half idle for a 100 MB list.
///
/// A failure (invalid JSON, a limit) ends the chain: the next `receive` throws it, which ends
/// the download, and so does `drain`.
final class IndexFeed: Sendable {
    typealias Waiter = CheckedContinuation<Void, any Error>

    private let box: IndexerBox
    private let state: Mutex<IndexFeedState<ByteBuffer, Waiter>>
    private let workers: FillWorkers

    /// 4 MiB queued at most (beside the store), 1 MiB per step: past a few hundred kilobytes a
    /// step's hand-overs cost nothing next to its scan.
    init(box: IndexerBox, limit: Int = 4 << 20, batch: Int = 1 << 20, workers: FillWorkers = .shared) {
        self.box = box
        self.state = Mutex(IndexFeedState(limit: limit, batch: batch))
        self.workers = workers
    }

    /// Queues `chunk` for indexing; waits while the queue is full; throws an earlier chunk's
    /// failure.
    func receive(_ chunk: ByteBuffer) async throws {
        guard chunk.readableBytes > 0 else { return }
        switch state.withLock({ $0.receive(chunk, bytes: chunk.readableBytes) }) {
        case .failed(let error):
            throw error
        case .queued(let startStep, let wait):
            if startStep { workers.execute { self.run() } }
            guard wait else { return }
            try await withCheckedThrowingContinuation { (continuation: Waiter) in
                switch state.withLock({ $0.waitForRoom(continuation) }) {
                case .proceed(let failure): Self.resume(continuation, failure: failure)
                case .parked:
                    break
                }
            }
        }
    }

    /// Returns once every queued chunk is indexed and hashed (the indexer may be read then);
    /// throws the feed's failure.
    func drain() async throws {
        try await withCheckedThrowingContinuation { (continuation: Waiter) in
            switch state.withLock({ $0.drain(continuation) }) {
            case .done(let failure): Self.resume(continuation, failure: failure)
            case .parked:
                break
            }
        }
    }

    private static func resume(_ waiter: Waiter, failure: (any Error)?) {
        if let failure { waiter.resume(throwing: failure) } else { waiter.resume() }
    }

    /// Steps until the queue is empty; when a step's hashing pass is still running, the chain
    /// goes on on the worker that ends it.
    private func run() {
        while true {
            box.indexer.adoptSettled()
            let (chunks, waiter) = state.withLock { $0.takeBatch() }
            guard !chunks.isEmpty else {
                // Idle: `waiter` is a drain, which may now read the indexer.
                waiter?.resume()
                return
            }
            waiter?.resume()
            do {
                for chunk in chunks {
                    try chunk.withUnsafeReadableBytes { (bytes) throws(FolioError) in try box.indexer.stage(bytes) }
                }
                try box.indexer.scanStaged(overlapped: true)
            } catch {
                for waiter in state.withLock({ $0.fail(error) }) { waiter.resume(throwing: error) }
                return
            }
            if box.indexer.whenSettled({ self.run() }) { return }
        }
    }
}
