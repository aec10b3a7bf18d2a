import FolioEngine
import Synchronization
import Testing

/// The default snapshot store: what it keeps, what it gives back, and what it evicts first.
@Suite("Memory snapshot store")
struct MemorySnapshotStoreTests {
    /// A clock moved by hand.
    final class Clock: Sendable {
        private let current = Mutex(ContinuousClock.now)
        var now: @Sendable () -> ContinuousClock.Instant { { self.current.withLock { $0 } } }
        func advance(_ duration: Duration) { current.withLock { $0 += duration } }
    }

    /// A snapshot of `count` objects tagged `tag`; equal counts and tag lengths give equal sizes
    /// up to the allocator's rounding.
    static func snapshot(_ tag: String, count: Int = 200, at now: ContinuousClock.Instant = .now) throws -> Snapshot {
        let body =
            "[" + (0..<count).map { #"{"name":"\#(tag) \#(count - $0)","n":\#($0)}"# }.joined(separator: ",") + "]"
        let (list, token, _) = try indexOne(Array(body.utf8))
        return Snapshot(
            list: list, token: token, storedAt: now, freshUntil: now + .seconds(60),
            indexes: SnapshotIndexes(list: list, sectionKey: nil))
    }

    static func key(_ route: String = "r", _ url: String = "/a") -> CacheKey {
        CacheKey(route: route, upstreamURL: url)
    }

    @Test func replacingAListRetainsThePreviousForItsPinnedLinks() throws {
        let clock = Clock()
        let store = MemorySnapshotStore(maxBytes: 1 << 30, now: clock.now)
        let v1 = try Self.snapshot("v1")
        let v2 = try Self.snapshot("v2")
        #expect(v1.token != v2.token)
        #expect(store.install(v1, for: Self.key(), retention: .seconds(10)))
        clock.advance(.seconds(3))
        #expect(store.install(v2, for: Self.key(), retention: .seconds(10)))
        #expect(store.current(Self.key()) === v2)
        let pinned = try #require(store.retained(Self.key(), token: v1.token))
        #expect(pinned.snapshot === v1)
        #expect(pinned.supersededAt == clock.now())
        #expect(store.retained(Self.key(), token: v2.token) == nil, "the current list is not a retained one")
        #expect(store.retained(Self.key("r", "/b"), token: v1.token) == nil, "retained per key")
        #expect(store.statistics() == SnapshotStoreStatistics(snapshots: 2, bytes: v1.retainedBytes + v2.retainedBytes))

        clock.advance(.seconds(11))
        #expect(store.retained(Self.key(), token: v1.token) == nil, "retention over")
        #expect(store.statistics() == SnapshotStoreStatistics(snapshots: 1, bytes: v2.retainedBytes))
    }

    @Test func theSameTokenRenewsWithoutRetainingOrCountingTwice() throws {
        let store = MemorySnapshotStore(maxBytes: 1 << 30)
        let v1 = try Self.snapshot("v1")
        let renewed = v1.renewed(
            storedAt: .now, freshUntil: .now + .seconds(5), etag: "\"e\"", lastModified: nil, mustRevalidate: false)
        #expect(store.install(v1, for: Self.key(), retention: .seconds(10)))
        #expect(store.install(renewed, for: Self.key(), retention: .seconds(10)))
        #expect(store.current(Self.key()) === renewed)
        #expect(store.retained(Self.key(), token: v1.token) == nil)
        #expect(store.statistics() == SnapshotStoreStatistics(snapshots: 1, bytes: v1.retainedBytes))
    }

    @Test func zeroRetentionDropsTheReplacedListAtOnce() throws {
        let store = MemorySnapshotStore(maxBytes: 1 << 30)
        let v1 = try Self.snapshot("v1")
        let v2 = try Self.snapshot("v2")
        _ = store.install(v1, for: Self.key(), retention: .zero)
        _ = store.install(v2, for: Self.key(), retention: .zero)
        #expect(store.retained(Self.key(), token: v1.token) == nil)
        #expect(store.statistics().bytes == v2.retainedBytes)
    }

    @Test func aSnapshotLargerThanTheBoundIsRefusedAndKeepsTheCurrentOne() throws {
        let small = try Self.snapshot("v1", count: 10)
        let big = try Self.snapshot("v2", count: 400)
        let store = MemorySnapshotStore(maxBytes: small.retainedBytes * 3)
        #expect(big.retainedBytes > small.retainedBytes * 3)
        #expect(store.install(small, for: Self.key(), retention: .seconds(10)))
        #expect(!store.install(big, for: Self.key(), retention: .seconds(10)))
        #expect(store.current(Self.key()) === small)
        #expect(store.statistics() == SnapshotStoreStatistics(snapshots: 1, bytes: small.retainedBytes))
    }

    @Test func overTheBoundRetainedGoFirstOldestFirstThenLeastRecentlyUsed() throws {
        let clock = Clock()
        let snapshots = try ["a1", "a2", "b1", "c1", "d1", "e1"].map { try Self.snapshot($0) }
        // Sizes differ by the allocator's rounding only: three always fit, four never do.
        let sizes = snapshots.map(\.retainedBytes)
        let bound = 3 * sizes.max()! + sizes.min()! / 2
        let evicted = Mutex(0)
        let store = MemorySnapshotStore(
            maxBytes: bound, now: clock.now, onEviction: { n in evicted.withLock { $0 += n } })
        let (a, b, c, d, e) = (
            Self.key("r", "/a"), Self.key("r", "/b"), Self.key("r", "/c"), Self.key("r", "/d"), Self.key("r", "/e")
        )
        func install(_ s: Snapshot, _ key: CacheKey) {
            clock.advance(.seconds(1))
            #expect(store.install(s, for: key, retention: .seconds(600)))
        }
        install(snapshots[0], a)
        install(snapshots[1], a)  // a1 retained
        install(snapshots[2], b)  // three held: a1 (retained), a2, b1
        install(snapshots[3], c)  // over: the retained a1 goes, not the older-used current lists
        #expect(store.retained(a, token: snapshots[0].token) == nil)
        // (Checked without `current`, which would count as a use and change the order below.)
        #expect(store.statistics().snapshots == 3 && store.statistics().evictions == 1)
        clock.advance(.seconds(1))
        _ = store.current(a)  // a is now more recently used than b
        install(snapshots[4], d)  // over: b is the least recently used
        #expect(store.current(b) == nil)
        #expect(store.current(a) === snapshots[1] && store.current(d) === snapshots[4])
        install(snapshots[5], e)  // over: c (a and d were used later)
        #expect(store.current(c) == nil && store.current(e) === snapshots[5])
        let held = [snapshots[1], snapshots[4], snapshots[5]].map(\.retainedBytes).reduce(0, +)
        #expect(store.statistics() == SnapshotStoreStatistics(snapshots: 3, bytes: held, evictions: 3))
        #expect(evicted.withLock { $0 } == 3)
    }

    @Test func preparedOrdersCountAndCanEvictOthers() throws {
        let older = try Self.snapshot("v1")
        let newer = try Self.snapshot("v2")
        let store = MemorySnapshotStore(maxBytes: older.retainedBytes * 2 + 100)
        _ = store.install(older, for: Self.key("r", "/a"), retention: .zero)
        _ = store.install(newer, for: Self.key("r", "/b"), retention: .zero)
        let before = newer.retainedBytes
        #expect(store.statistics().bytes == older.retainedBytes + before)
        newer.indexes.prepare(try SortSpec(parsing: ["name"]))
        #expect(newer.retainedBytes > before + 100, "an order of 200 elements is more than the slack")
        store.recount(newer, for: Self.key("r", "/b"))
        #expect(store.current(Self.key("r", "/a")) == nil, "the other list made room")
        #expect(store.current(Self.key("r", "/b")) === newer)
        #expect(store.statistics() == SnapshotStoreStatistics(snapshots: 1, bytes: newer.retainedBytes, evictions: 1))
        // Recounting a snapshot the store does not hold changes nothing.
        store.recount(older, for: Self.key("r", "/a"))
        #expect(store.statistics().bytes == newer.retainedBytes)
    }

    @Test func whatRequestsBuiltIsShedBeforeAnySnapshotLeastRecentlyUsedFirst() throws {
        let older = try Self.snapshot("v1")
        let newer = try Self.snapshot("v2")
        let sort = try SortSpec(parsing: ["-name", "n"])
        let probe = try Self.snapshot("v3")
        let listBytes = probe.retainedBytes
        _ = probe.indexes.order(sort)
        let orderBytes = probe.retainedBytes - listBytes
        // Room for both lists and one request's order, not two.
        let store = MemorySnapshotStore(maxBytes: listBytes * 2 + orderBytes + orderBytes / 2)
        _ = store.install(older, for: Self.key("r", "/a"), retention: .zero)
        _ = store.install(newer, for: Self.key("r", "/b"), retention: .zero)
        _ = older.indexes.order(sort)
        _ = older.indexes.view("q=x") { [0, 1, 2] }
        older.rendered.store([UInt8](repeating: 1, count: 64), for: "a page")
        store.recount(older, for: Self.key("r", "/a"))
        #expect(older.indexes.retainedBytes > orderBytes / 2, "within the bound: kept")
        #expect(older.rendered.count == 1)

        _ = store.current(Self.key("r", "/b"))  // the older list is now the least recently used
        _ = newer.indexes.order(sort)
        let built = newer.indexes.retainedBytes  // the allocator may round it unlike `orderBytes`
        store.recount(newer, for: Self.key("r", "/b"))
        #expect(store.current(Self.key("r", "/a")) === older, "no snapshot was evicted")
        #expect(store.current(Self.key("r", "/b")) === newer)
        #expect(older.indexes.retainedBytes == 0, "the least recently used list's orders and views went")
        #expect(older.rendered.retainedBytes == 0, "and its kept answers")
        #expect(newer.indexes.retainedBytes == built, "the most recently used list kept its order")
        #expect(
            store.statistics()
                == SnapshotStoreStatistics(
                    snapshots: 2, bytes: older.retainedBytes + newer.retainedBytes, evictions: 0))
        #expect(older.indexes.order(sort) == newer.indexes.order(sort), "a shed order is built again on demand")
    }

    @Test func supersedeKeepsPinnedLinksAndRemoveForgetsTheRoute() throws {
        let store = MemorySnapshotStore(maxBytes: 1 << 30)
        let a = try Self.snapshot("a1")
        let b = try Self.snapshot("b1")
        let other = try Self.snapshot("o1")
        _ = store.install(a, for: Self.key("r", "/a"), retention: .zero)
        _ = store.install(b, for: Self.key("r", "/b"), retention: .zero)
        _ = store.install(other, for: Self.key("s", "/a"), retention: .zero)
        store.supersede(route: "r", retention: .seconds(30))
        #expect(store.current(Self.key("r", "/a")) == nil && store.current(Self.key("r", "/b")) == nil)
        #expect(store.retained(Self.key("r", "/a"), token: a.token)?.snapshot === a)
        #expect(store.retained(Self.key("r", "/b"), token: b.token)?.snapshot === b)
        #expect(store.statistics().bytes == a.retainedBytes + b.retainedBytes + other.retainedBytes)
        store.remove(route: "r")
        #expect(store.retained(Self.key("r", "/a"), token: a.token) == nil)
        #expect(store.current(Self.key("s", "/a")) === other)
        #expect(store.statistics() == SnapshotStoreStatistics(snapshots: 1, bytes: other.retainedBytes))
    }

    @Test func aSmallerBoundEvictsAtOnce() throws {
        let clock = Clock()
        let store = MemorySnapshotStore(maxBytes: 1 << 30, now: clock.now)
        let lists = try ["a1", "b1", "c1"].map { try Self.snapshot($0) }
        for (i, list) in lists.enumerated() {
            clock.advance(.seconds(1))
            _ = store.install(list, for: Self.key("r", "/\(i)"), retention: .zero)
        }
        store.setMaxBytes(lists.map(\.retainedBytes).max()!)
        #expect(store.current(Self.key("r", "/2")) === lists[2], "the most recently used stays")
        #expect(
            store.statistics() == SnapshotStoreStatistics(snapshots: 1, bytes: lists[2].retainedBytes, evictions: 2))
    }
}
