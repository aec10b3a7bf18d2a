import FolioEngine
import Synchronization

/// Loads from Redis in flight, counted against the local layer's bound (docs/SHARED-STORE.md,
/// "Loads count against the local layer"): reading a list back holds its parts as received,
/// the indexer's copy and its index, about `bytesPerListByte` times the list. A load waits
/// until it fits beside the others within `localMaxBytes`, and is counted in the local layer
/// while it runs (evicting least-used lists to make room); one that cannot fit at all runs
/// alone.
final class LoadBudget: Sendable {
    /// What a load holds per byte of its list.
    static let bytesPerListByte = 3

    private struct State {
        var inFlight = 0
        var waiting: [(bytes: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())
    let local: MemorySnapshotStore

    init(local: MemorySnapshotStore) {
        self.local = local
    }

    /// Returns once `bytes` fit beside the loads in flight, counted until `release`.
    func admit(_ bytes: Int) async {
        let bound = local.maxBytes
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLock { state in
                guard state.waiting.isEmpty, Self.fits(bytes, beside: state.inFlight, within: bound) else {
                    state.waiting.append((bytes, continuation))
                    return false
                }
                state.inFlight += bytes
                return true
            }
            if admitted { continuation.resume() }
        }
        local.reserve(bytes)
    }

    /// Gives back what `admit` counted, and admits the loads that fit now, in turn.
    func release(_ bytes: Int) {
        local.unreserve(bytes)
        let bound = local.maxBytes
        let admitted = state.withLock { state in
            state.inFlight -= bytes
            var admitted: [CheckedContinuation<Void, Never>] = []
            while let next = state.waiting.first, Self.fits(next.bytes, beside: state.inFlight, within: bound) {
                state.waiting.removeFirst()
                state.inFlight += next.bytes
                admitted.append(next.continuation)
            }
            return admitted
        }
        for continuation in admitted { continuation.resume() }
    }

    /// Bytes of loads running now, and loads waiting (tests).
    var counts: (inFlight: Int, waiting: Int) { state.withLock { ($0.inFlight, $0.waiting.count) } }

    private static func fits(_ bytes: Int, beside inFlight: Int, within bound: Int) -> Bool {
        inFlight == 0 || inFlight + bytes <= bound
    }
}

/// What one load was admitted for, given back once (when the load ends, however it ends).
final class LoadTicket: Sendable {
    private let budget: LoadBudget
    private let held = Mutex(0)

    init(_ budget: LoadBudget) {
        self.budget = budget
    }

    /// Waits for the budget to admit a list of `listBytes`.
    func admit(listBytes: Int) async {
        let bytes = listBytes * LoadBudget.bytesPerListByte
        await budget.admit(bytes)
        held.withLock { $0 += bytes }
    }

    func release() {
        let bytes = held.withLock { held in
            defer { held = 0 }
            return held
        }
        if bytes > 0 { budget.release(bytes) }
    }
}
