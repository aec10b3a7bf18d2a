import FolioEngine
import Testing

@testable import FolioRedisStore

/// `ReplicaClock`: instants across replicas as wall-clock milliseconds, and back.
@Suite("Replica clock")
struct ReplicaClockTests {
    static let wall: Int64 = 1_764_000_000_000
    let now = ContinuousClock.now

    var clock: ReplicaClock {
        ReplicaClock(now: { [now] in now }, wallClock: { Self.wall })
    }

    /// A wall-clock time `ago` milliseconds back (negative: ahead), on this replica's clock.
    @Test(arguments: [(0, 0), (1500, 1500), (-2000, 0)] as [(Int64, Int64)])
    func aWallClockTimeIsAnInstantNeverInTheFuture(ago: Int64, elapsed: Int64) {
        #expect(clock.elapsed(sinceMilliseconds: Self.wall - ago) == .milliseconds(elapsed))
        #expect(clock.instant(ofMilliseconds: Self.wall - ago, now: now) == now - .milliseconds(elapsed))
        #expect(clock.storedAt(Self.wall - ago) == now - .milliseconds(elapsed))
    }

    static func freshness(storedAgo: Int64, lifetime: Int64) -> StoredFreshness {
        StoredFreshness(
            storedAtMilliseconds: wall - storedAgo, lifetimeMilliseconds: lifetime, etag: "\"e\"",
            lastModified: nil, mustRevalidate: true, initialAgeMilliseconds: 3000)
    }

    /// Fresh while the filler's time plus the lifetime is ahead of the wall clock.
    @Test(arguments: [(0, 10_000, true), (9_999, 10_000, true), (10_000, 10_000, false), (20_000, 10_000, false)])
    func freshnessIsTheFillersTimePlusTheLifetime(storedAgo: Int64, lifetime: Int64, fresh: Bool) {
        let freshness = Self.freshness(storedAgo: storedAgo, lifetime: lifetime)
        #expect(clock.isFresh(freshness) == fresh)
        #expect(clock.freshUntil(freshness) == now + .milliseconds(lifetime - storedAgo))
        #expect(clock.freshUntil(freshness, storedAt: now) == now + .milliseconds(lifetime))
    }

    /// A snapshot stored and read back keeps its instants (to the millisecond), and a held one
    /// renewed takes the stored freshness.
    @Test func aSnapshotCrossesReplicasWithItsInstants() throws {
        var indexer = ListIndexer(items: .root, limits: IndexLimits(), sort: [])
        try indexer.append(Array(#"[{"id":1}]"#.utf8))
        _ = try indexer.endBody()
        let (list, token) = try indexer.finish()
        let held = Snapshot(
            list: list, token: token, storedAt: now - .seconds(2), freshUntil: now + .seconds(8), etag: "\"a\"",
            initialAge: .seconds(1), indexes: SnapshotIndexes(list: list, sectionKey: nil))
        let stored = clock.stored(held, sort: .upstream, now: now)
        #expect(stored.storedAtMilliseconds == Self.wall - 2000)
        #expect(stored.lifetimeMilliseconds == 10_000)
        #expect(stored.initialAgeMilliseconds == 1000)
        #expect(stored.etag == "\"a\"")

        let renewed = clock.renewed(held, by: Self.freshness(storedAgo: 500, lifetime: 30_000))
        #expect(renewed.token == held.token)
        #expect(renewed.storedAt == now - .milliseconds(500))
        #expect(renewed.freshUntil == now + .milliseconds(29_500))
        #expect(renewed.etag == "\"e\"")
        #expect(renewed.mustRevalidate)
        #expect(renewed.initialAge == .seconds(3))
    }
}
