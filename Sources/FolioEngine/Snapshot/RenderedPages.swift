import Synchronization

/// Something rendered from a snapshot that the gateway keeps for reuse: a compressed body, or a
/// whole answer (header fields and body). `byteCount` is what it holds, as counted against
/// `cache.maxBytes`.
public protocol RenderedAnswer: Sendable {
    var byteCount: Int { get }
}

extension Array: RenderedAnswer where Element == UInt8 {
    public var byteCount: Int { count }
}

/// Answers rendered from one snapshot and kept for reuse (docs/API.md, "Compressed answers"
/// and "Rendered answers"): compressed bodies per normalized query and coding, and whole answers
/// per request target, so a page asked for again is sent without being written again.
///
/// Bounded so that clients walking every offset of a long list cannot grow one snapshot without
/// end: past `limit` bytes the least recently used answers go first (in constant time: a walk
/// of a long list replaces one answer per page). What it holds counts in
/// `Snapshot.retainedBytes`, and so against `cache.maxBytes`, and goes with the snapshot.
public final class RenderedPages: Sendable {
    /// One kept answer, linked into the recency list by slot numbers.
    private struct Entry {
        var key: String
        var answer: any RenderedAnswer
        var cost: Int
        var newer = -1
        var older = -1
    }

    private struct State {
        var slots: [String: Int] = [:]
        var entries: [Entry] = []
        var free: [Int] = []
        var newest = -1
        var oldest = -1
        var bytes = 0

        mutating func unlink(_ slot: Int) {
            let (newer, older) = (entries[slot].newer, entries[slot].older)
            if newer >= 0 { entries[newer].older = older } else { newest = older }
            if older >= 0 { entries[older].newer = newer } else { oldest = newer }
        }

        mutating func linkNewest(_ slot: Int) {
            entries[slot].newer = -1
            entries[slot].older = newest
            if newest >= 0 { entries[newest].newer = slot } else { oldest = slot }
            newest = slot
        }

        mutating func remove(_ slot: Int) {
            unlink(slot)
            slots[entries[slot].key] = nil
            bytes -= entries[slot].cost
            entries[slot].answer = [UInt8]()
            entries[slot].key = ""
            free.append(slot)
        }
    }

    private let state = Mutex(State())
    /// Most bytes kept (answers plus a small per-entry overhead).
    public let limit: Int

    public init(limit: Int) {
        self.limit = limit
    }

    /// The answer stored under `key` if it is a `T`, marking it used.
    public func answer<T: RenderedAnswer>(_ key: String, as type: T.Type = T.self) -> T? {
        state.withLock { state in
            guard let slot = state.slots[key] else { return nil }
            if state.newest != slot {
                state.unlink(slot)
                state.linkNewest(slot)
            }
            return state.entries[slot].answer as? T
        }
    }

    /// The bytes stored under `key`, marking them used.
    public func page(_ key: String) -> [UInt8]? {
        answer(key)
    }

    /// Keeps `answer` under `key` unless it alone is over the limit; evicts the least recently
    /// used answers to stay within it. Returns whether the stored total changed (the caller then
    /// recounts the snapshot against the cache bound).
    @discardableResult
    public func store(_ answer: some RenderedAnswer, for key: String) -> Bool {
        let cost = answer.byteCount + key.utf8.count + 64
        guard cost <= limit else { return false }
        return state.withLock { state in
            guard state.slots[key] == nil else { return false }
            let entry = Entry(key: key, answer: answer, cost: cost)
            let slot: Int
            if let reused = state.free.popLast() {
                slot = reused
                state.entries[slot] = entry
            } else {
                slot = state.entries.count
                state.entries.append(entry)
            }
            state.slots[key] = slot
            state.linkNewest(slot)
            state.bytes += cost
            while state.bytes > limit, state.oldest >= 0, state.oldest != slot {
                state.remove(state.oldest)
            }
            return true
        }
    }

    /// Drops every kept answer (the store is over its bound); returns the bytes freed.
    public func removeAll() -> Int {
        state.withLock { state in
            let freed = state.bytes
            state = State()
            return freed
        }
    }

    /// Bytes held now.
    public var retainedBytes: Int { state.withLock { $0.bytes } }

    /// Answers held now.
    public var count: Int { state.withLock { $0.slots.count } }
}
