import NIOCore

/// The state of an `IndexFeed`: downloaded chunks queued for the indexer, whether a step of
/// indexing is under way, and who waits (the download for room, the fill for the end).
///
/// Pure and generic over the chunk and the waiter, so its rules are table-tested without
/// threads (`IndexFeedStateTests`); `IndexFeed` holds it under a lock and carries out what it
/// returns.
struct IndexFeedState<Chunk, Waiter> {
    /// Bytes queued at which `receive` makes the download wait.
    let limit: Int
    /// Bytes one step takes at most (at least one chunk).
    let batch: Int

    /// Taken chunks leave at once: a download that stays ahead of the indexer never empties
    /// the queue, and chunks kept behind a read position held the whole body twice.
    private var queued = CircularBuffer<(chunk: Chunk, bytes: Int)>()
    private(set) var queuedBytes = 0
    /// A step is scheduled, running, or waiting for its hashing pass.
    private(set) var stepping = false
    private(set) var failure: (any Error)?
    private var receiver: Waiter?
    private var drainer: Waiter?

    init(limit: Int, batch: Int) {
        self.limit = limit
        self.batch = batch
    }

    enum ReceiveAction {
        /// Queued; `startStep`: no step runs, start one. `wait`: the queue is full, the
        /// download waits for room (`waitForRoom`).
        case queued(startStep: Bool, wait: Bool)
        /// An earlier chunk failed; the chunk is dropped.
        case failed(any Error)
    }

    /// A downloaded chunk of `bytes` bytes.
    mutating func receive(_ chunk: Chunk, bytes: Int) -> ReceiveAction {
        if let failure { return .failed(failure) }
        queued.append((chunk, bytes))
        queuedBytes += bytes
        let start = !stepping
        stepping = true
        return .queued(startStep: start, wait: queuedBytes >= limit)
    }

    enum WaitAction {
        /// Go on at once (room was made meanwhile, or the feed failed: `failure`).
        case proceed(failure: (any Error)?)
        /// Parked until a step makes room or the feed fails.
        case parked
    }

    /// The download waits for room after `receive` said so.
    mutating func waitForRoom(_ waiter: Waiter) -> WaitAction {
        if failure != nil || queuedBytes < limit { return .proceed(failure: failure) }
        precondition(receiver == nil, "IndexFeedState: two downloads wait")
        receiver = waiter
        return .parked
    }

    /// What a step indexes next: up to `batch` bytes of queued chunks (at least one), and a
    /// waiting download to resume once below `limit`; no chunks: the step ends, the feed is
    /// idle, and a waiting `drain` is to resume.
    mutating func takeBatch() -> (chunks: [Chunk], resume: Waiter?) {
        precondition(stepping, "IndexFeedState: a batch taken without a step")
        guard !queued.isEmpty else {
            stepping = false
            defer { drainer = nil }
            return ([], drainer)
        }
        var chunks: [Chunk] = []
        var taken = 0
        while let next = queued.first, chunks.isEmpty || taken + next.bytes <= batch {
            chunks.append(next.chunk)
            taken += next.bytes
            queued.removeFirst()
        }
        queuedBytes -= taken
        guard queuedBytes < limit, let receiver else { return (chunks, nil) }
        self.receiver = nil
        return (chunks, receiver)
    }

    /// A step failed: the queue is dropped, later chunks are refused, and everyone waiting is
    /// to resume (and learn of `failure`).
    mutating func fail(_ error: any Error) -> [Waiter] {
        failure = error
        stepping = false
        queued.removeAll()
        queuedBytes = 0
        defer { (receiver, drainer) = (nil, nil) }
        return [receiver, drainer].compactMap { $0 }
    }

    enum DrainAction {
        /// Every chunk is indexed (or the feed failed: `failure`).
        case done(failure: (any Error)?)
        /// Parked until the last step ends or fails.
        case parked
    }

    /// The download is over: wait until every queued chunk is indexed.
    mutating func drain(_ waiter: Waiter) -> DrainAction {
        if !stepping { return .done(failure: failure) }
        precondition(drainer == nil, "IndexFeedState: drained twice")
        drainer = waiter
        return .parked
    }
}
