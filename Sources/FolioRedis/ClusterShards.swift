import Synchronization

/// A shard of a Redis Cluster that was lost or came back (docs/SHARED-STORE.md, "Redis
/// Cluster"): told once per change, not once per command that failed meanwhile.
public struct ClusterShardChange: Sendable, Equatable {
    /// The slots the shard serves, as `low-high` ranges (`0-5460`, `5461-10922,16000-16383`).
    public var slots: String
    /// The primary that failed (lost), or the one that answers for the shard now (back).
    public var node: ClusterSlotMap.Node
    /// The primary that failed, when the shard is back.
    public var lostNode: ClusterSlotMap.Node?
    /// Why it was lost.
    public var error: RedisError?

    public var isBack: Bool { lostNode != nil }
}

/// The shards of a cluster whose primary failed a command, until a primary of theirs answers
/// again (`RedisClusterClient`). A shard is named by its slots, which a failover keeps: the
/// replica that takes over serves the same slots under another address.
final class ClusterShards: Sendable {
    private struct Lost {
        var ranges: [ClosedRange<Int>]
        var node: ClusterSlotMap.Node
    }

    /// Lost shards by their first slot.
    private let lost = Mutex<[Int: Lost]>([:])
    /// How many are lost: what a successful command reads, without the lock.
    private let lostCount = Atomic<Int>(0)
    private let handler = Mutex<(@Sendable (ClusterShardChange) -> Void)?>(nil)

    func onChange(_ handler: @escaping @Sendable (ClusterShardChange) -> Void) {
        self.handler.withLock { $0 = handler }
    }

    var hasLost: Bool { lostCount.load(ordering: .relaxed) > 0 }

    /// `node` failed a command with `error` (not an error answer): the shard it serves in `map`
    /// is lost, unless it was already.
    func failed(_ node: ClusterSlotMap.Node, in map: ClusterSlotMap, error: RedisError) {
        // Every command of a lost shard fails until it is back: those find it lost at once.
        if hasLost, lost.withLock({ $0.values.contains { $0.node == node } }) { return }
        let ranges = map.ranges(of: node)
        guard let first = ranges.first?.lowerBound else { return }
        let added = lost.withLock { lost -> Bool in
            guard !lost.values.contains(where: { $0.ranges.contains { $0.contains(first) } }) else { return false }
            lost[first] = Lost(ranges: ranges, node: node)
            lostCount.store(lost.count, ordering: .relaxed)
            return true
        }
        if added { tell(ClusterShardChange(slots: Self.text(ranges), node: node, error: error)) }
    }

    /// `node` answered: every lost shard it serves in `map` is back.
    func answered(by node: ClusterSlotMap.Node, in map: ClusterSlotMap) {
        guard hasLost else { return }
        let back = lost.withLock { lost -> [Lost] in
            let back = lost.filter { map.primary(of: $0.key) == node }
            for first in back.keys { lost[first] = nil }
            lostCount.store(lost.count, ordering: .relaxed)
            return Array(back.values)
        }
        for shard in back {
            tell(ClusterShardChange(slots: Self.text(shard.ranges), node: node, lostNode: shard.node))
        }
    }

    /// The primaries `map` names for the lost shards now (a ping to each finds them back).
    func primaries(in map: ClusterSlotMap) -> Set<ClusterSlotMap.Node> {
        guard hasLost else { return [] }
        return lost.withLock { lost in Set(lost.keys.compactMap { map.primary(of: $0) }) }
    }

    private func tell(_ change: ClusterShardChange) {
        handler.withLock { $0 }?(change)
    }

    static func text(_ ranges: [ClosedRange<Int>]) -> String {
        ranges.map { "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ",")
    }
}

extension ClusterSlotMap {
    /// The slot ranges `node` is the primary of, in order.
    func ranges(of node: Node) -> [ClosedRange<Int>] {
        var ranges: [ClosedRange<Int>] = []
        var start: Int?
        for slot in 0...HashSlot.count {
            let served = slot < HashSlot.count && primaries[slot] == node
            if served, start == nil { start = slot }
            if !served, let low = start {
                ranges.append(low...(slot - 1))
                start = nil
            }
        }
        return ranges
    }

    /// This map, with the primary `older` named for each slot this one has none for.
    func keepingPrimaries(of older: ClusterSlotMap) -> ClusterSlotMap {
        var merged = self
        for slot in 0..<HashSlot.count where merged.primaries[slot] == nil {
            merged.primaries[slot] = older.primaries[slot]
        }
        return merged
    }
}
