import Synchronization
import Testing

@testable import FolioRedis

/// `ClusterShards` alone: a shard is told once when its primary fails, however many commands
/// fail, and once when a primary of its slots answers (docs/SHARED-STORE.md, "Redis Cluster").
@Suite("Cluster shards lost and back")
struct ClusterShardsTests {
    static let a = ClusterSlotMap.Node(host: "127.0.0.1", port: 7001)
    static let b = ClusterSlotMap.Node(host: "127.0.0.1", port: 7002)
    static let promoted = ClusterSlotMap.Node(host: "127.0.0.1", port: 7004)

    /// A serves two ranges, B the rest.
    static func map(_ first: ClusterSlotMap.Node) -> ClusterSlotMap {
        var map = ClusterSlotMap()
        map.assign(0...16383, to: b)
        map.assign(0...5460, to: first)
        map.assign(16000...16383, to: first)
        return map
    }

    @Test func aShardIsToldOnceLostAndOnceBack() {
        let shards = ClusterShards()
        let told = Mutex<[ClusterShardChange]>([])
        shards.onChange { change in told.withLock { $0.append(change) } }
        let error = RedisError.connection("refused")

        for _ in 0..<5 { shards.failed(Self.a, in: Self.map(Self.a), error: error) }
        #expect(told.withLock { $0 } == [ClusterShardChange(slots: "0-5460,16000-16383", node: Self.a, error: error)])
        shards.answered(by: Self.b, in: Self.map(Self.a))
        #expect(told.withLock { $0.count } == 1, "another shard's answer brings nothing back")
        #expect(shards.primaries(in: Self.map(Self.promoted)) == [Self.promoted])

        shards.answered(by: Self.promoted, in: Self.map(Self.promoted))
        shards.answered(by: Self.promoted, in: Self.map(Self.promoted))
        #expect(
            told.withLock { $0.last }
                == ClusterShardChange(slots: "0-5460,16000-16383", node: Self.promoted, lostNode: Self.a))
        #expect(told.withLock { $0.count } == 2)
        #expect(!shards.hasLost)
    }

    @Test func aNodeThatServesNoSlotsLosesNoShard() {
        let shards = ClusterShards()
        shards.failed(Self.promoted, in: Self.map(Self.a), error: .connection("refused"))
        #expect(!shards.hasLost)
    }

    @Test func aMapKeepsTheLastPrimaryOfSlotsThatHaveNone() {
        var now = ClusterSlotMap()
        now.assign(5461...16383, to: Self.b)
        let kept = now.keepingPrimaries(of: Self.map(Self.a))
        #expect(kept.primary(of: 0) == Self.a)
        #expect(kept.primary(of: 16000) == Self.b, "a slot served now keeps its primary")
        #expect(kept.ranges(of: Self.a) == [0...5460])
    }
}
