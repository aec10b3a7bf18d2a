import Synchronization

/// Answers rendered from one snapshot and kept for reuse: today the compressed bodies of its
/// pages (docs/API.md, "Compressed answers": each representation is compressed once per
/// snapshot, normalized query and coding).
///
/// Bounded so that clients walking every offset of a long list cannot grow one snapshot without
/// end: past `limit` bytes the least recently used answers go first. What it holds counts in
/// `Snapshot.retainedBytes`, and so against `cache.maxBytes`, and goes with the snapshot.
public final class RenderedPages: Sendable {
    private struct Page {
        var bytes: [UInt8]
        var lastUse: UInt64
    }

    private struct State {
        var pages: [String: Page] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    private let state = Mutex(State())
    /// Most bytes kept (bodies plus a small per-entry overhead).
    public let limit: Int

    public init(limit: Int) {
        self.limit = limit
    }

    /// The answer stored under `key`, marking it used.
    public func page(_ key: String) -> [UInt8]? {
        state.withLock { state in
            guard state.pages[key] != nil else { return nil }
            state.clock += 1
            state.pages[key]!.lastUse = state.clock
            return state.pages[key]!.bytes
        }
    }

    /// Keeps `bytes` under `key` unless it alone is over the limit; evicts the least recently
    /// used answers to stay within it. Returns whether the stored total changed (the caller then
    /// recounts the snapshot against the cache bound).
    @discardableResult
    public func store(_ bytes: [UInt8], for key: String) -> Bool {
        let cost = Self.cost(bytes, key: key)
        guard cost <= limit else { return false }
        return state.withLock { state in
            guard state.pages[key] == nil else { return false }
            state.clock += 1
            state.pages[key] = Page(bytes: bytes, lastUse: state.clock)
            state.bytes += cost
            while state.bytes > limit, let oldest = state.pages.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.pages[oldest.key] = nil
                state.bytes -= Self.cost(oldest.value.bytes, key: oldest.key)
            }
            return true
        }
    }

    /// Bytes held now.
    public var retainedBytes: Int { state.withLock { $0.bytes } }

    /// Answers held now.
    public var count: Int { state.withLock { $0.pages.count } }

    private static func cost(_ bytes: [UInt8], key: String) -> Int {
        bytes.count + key.utf8.count + 64
    }
}
