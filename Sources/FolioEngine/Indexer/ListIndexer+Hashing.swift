import Crypto
import Dispatch
import Synchronization

/// Feeds completed elements into the snapshot-token SHA-256 (docs/API.md, "Snapshots") with few
/// update calls, and hashes each chunk's share on another core while the next chunk is scanned.
///
/// Compact lists (`…},{…`) are hashed straight from the store as one run, commas included;
/// other small elements are gathered in a scratch buffer, because one `update` per element
/// would cost as much as the hashing itself on pretty-printed bodies.
///
/// Scanning only records what to hash (`pending`). `ListIndexer.scanStaged(background: true)` hands the
/// pending input of earlier chunks to a fill worker (`startHashing`) while it scans the new
/// one, and the caller awaits the pass (`ListIndexer.settle`) before the store may grow, move or
/// be dropped, so nothing is copied. The wait suspends the task instead of blocking its thread:
/// on 2 cores a blocked thread is half of the pool that runs every request. SHA-256 is about
/// twice as fast as the scanner, so the pass is usually over before anyone waits.
///
/// `@unchecked Sendable`: `SHA256` is a copy-on-write value (its context is copied before a
/// shared one is written) that swift-crypto 3.x does not mark `Sendable`.
struct TokenHasher: @unchecked Sendable {
    private var sha = SHA256()
    private var scratch: [UInt8] = []
    private var runStart = 0
    /// End of the run of store bytes not yet handed on; -1 when there is none.
    private var runEnd = -1
    /// Store index just past the previous element of the current body; -1 at a body's start.
    private var lastEnd = -1
    private var hashedAny = false
    /// Input recorded but not hashed yet, in order.
    private var pending: [Segment] = []
    private var pendingBytes = 0

    /// Store bytes, or gathered bytes.
    private enum Segment: Sendable {
        case store(Range<Int>)
        case bytes([UInt8])
    }

    /// The state a background pass works on; the hasher takes it back in `adopt`.
    public final class Pass: @unchecked Sendable {
        fileprivate var sha: SHA256
        /// The store the pass reads, retained until it is over: an indexer dropped after a
        /// failure must not free the bytes under it. Released before `complete`, so the
        /// indexer's next append finds the store uniquely referenced (no copy).
        fileprivate var storage: [UInt8]?
        /// Ends when `sha` holds the pass's result.
        fileprivate let job = FillJob()

        fileprivate init(_ sha: SHA256, storage: [UInt8]) {
            self.sha = sha
            self.storage = storage
        }

        /// Returns once the pass is over, suspending (not blocking) until then.
        func finished() async {
            // A pass cannot fail: it is completed with success only.
            try? await job.finished()
        }
    }

    private static let scratchCapacity = 16 << 10
    private static let comma = UInt8(ascii: ",")
    /// Less pending input than this, or a smaller store, is hashed in line: a hand-over costs
    /// some 10 µs, which only pays on large lists (a 100 KB list indexed 6% slower with it).
    private static let backgroundMinimum = 32 << 10
    private static let backgroundStoreMinimum = 1 << 20

    init(sortPrefix: [UInt8]) {
        sha.update(data: sortPrefix + [UInt8(ascii: "\n")])
        scratch.reserveCapacity(Self.scratchCapacity)
    }

    /// Adds the element at `base[start..<end]`, preceded by a comma unless it is the first.
    @inline(__always)
    mutating func element(_ base: UnsafePointer<UInt8>, start: Int, end: Int) {
        defer {
            lastEnd = end
            hashedAny = true
        }
        if lastEnd >= 0, start == lastEnd + 1, base[lastEnd] == Self.comma {
            if runEnd == lastEnd {
                runEnd = end
            } else {
                flushScratch()
                runStart = lastEnd
                runEnd = end
            }
            return
        }
        endRun()
        let length = end - start
        if scratch.count + length + 1 > Self.scratchCapacity { flushScratch() }
        if hashedAny { scratch.append(Self.comma) }
        if length < Self.scratchCapacity / 4 {
            scratch.append(contentsOf: UnsafeBufferPointer(start: base + start, count: length))
        } else {
            flushScratch()
            add(.store(start..<end), count: length)
        }
    }

    /// Ends the pending run; called at the end of each chunk, so a run never spans a store
    /// that may have moved.
    mutating func endRun() {
        guard runEnd >= 0 else { return }
        add(.store(runStart..<runEnd), count: runEnd - runStart)
        runEnd = -1
    }

    /// A body ended: the next element cannot join a run with this body's last one.
    mutating func endBody() {
        endRun()
        lastEnd = -1
    }

    private mutating func flushScratch() {
        guard !scratch.isEmpty else { return }
        add(.bytes(scratch), count: scratch.count)
        scratch = []
        scratch.reserveCapacity(Self.scratchCapacity)
    }

    private mutating func add(_ segment: Segment, count: Int) {
        pending.append(segment)
        pendingBytes += count
    }

    /// Starts hashing the pending input of `store` (whose bytes are at `base`): in line when it
    /// is small or `background` is false (returns nil), else on a fill worker. The store
    /// must not move, and the hasher only record input, until the pass has finished and been
    /// adopted.
    mutating func startHashing(_ store: [UInt8], base: UnsafePointer<UInt8>, background: Bool) -> Pass? {
        let storeBytes = store.count
        guard pendingBytes > 0 else { return nil }
        let segments = pending
        pending = []
        defer { pendingBytes = 0 }
        guard background, pendingBytes >= Self.backgroundMinimum, storeBytes >= Self.backgroundStoreMinimum else {
            Self.hash(segments, base: base, into: &sha)
            return nil
        }
        let pass = Pass(sha, storage: store)
        let address = UInt(bitPattern: base)
        // On the fill workers, never a thread of the pool that runs Swift tasks.
        FillWorkers.shared.execute {
            Self.hash(segments, base: UnsafePointer(bitPattern: address)!, into: &pass.sha)
            pass.storage = nil
            pass.job.complete(.success(()))
        }
        return pass
    }

    /// Takes back the state of a finished pass.
    mutating func adopt(_ pass: Pass) {
        sha = pass.sha
    }

    private static func hash(_ segments: [Segment], base: UnsafePointer<UInt8>, into sha: inout SHA256) {
        for segment in segments {
            switch segment {
            case .store(let range):
                sha.update(bufferPointer: UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count))
            case .bytes(let bytes):
                bytes.withUnsafeBytes { sha.update(bufferPointer: $0) }
            }
        }
    }

    /// The token of everything added so far, the store being at `base`.
    mutating func token(_ base: UnsafePointer<UInt8>?) -> String {
        endRun()
        flushScratch()
        if pendingBytes > 0 {
            Self.hash(pending, base: base!, into: &sha)
            pending = []
            pendingBytes = 0
        }
        return SnapshotToken.text(of: sha.finalize())
    }
}
