import FolioTestSupport
import Synchronization
import Testing

@testable import FolioRedis
@testable import FolioRedisStore

/// How the shared store's health logs what Redis refuses (docs/SHARED-STORE.md, "Redis down,
/// slow or refusing": no line per command).
@Suite struct StoreHealthTests {
    /// A Redis that refuses writes (READONLY after a failover, OOM) refuses every one of them:
    /// one line per operation and minute, saying how many refusals it stands for; the store
    /// stays available (its reads work).
    @Test func refusalsAreLoggedOncePerOperationAndInterval() {
        let log = CapturedLog()
        let clock = TestClock()
        let health = StoreHealth(logger: log.logger(), metrics: UncountedMetrics(), now: clock.now)
        let readOnly = RedisError.refused("READONLY You can't write against a read only replica.")
        for _ in 0..<5 { health.failed(.write, readOnly) }
        health.failed(.lock, readOnly)
        #expect(health.isAvailable)
        var lines = log.messages("shared store answer refused")
        #expect(lines.map { $0.metadata["operation"]?.description } == ["write", "lock"])

        clock.advance(StoreHealth.refusalLogInterval)
        health.failed(.write, readOnly)
        lines = log.messages("shared store answer refused")
        #expect(lines.map { $0.metadata["operation"]?.description } == ["write", "lock", "write"])
        #expect("\(lines.last?.metadata["refused_since_last_line"] ?? "none")" == "4")
    }

    /// On a cluster a shard's outage turns the store unavailable and available again as its
    /// commands fail and pings to the other shards succeed: failures a node is named for log
    /// nothing here (the shard's own lines say it, once each), one no node is named for still
    /// does; every failure is counted under its node.
    @Test func aClusterLogsItsShardsInsteadOfEachTurnOfTheStore() {
        let log = CapturedLog()
        let metrics = NodeMetrics()
        let health = StoreHealth(logger: log.logger(), metrics: metrics, logsShards: true)
        let onNode = RedisError.connection("refused").from("127.0.0.1:7001")
        for _ in 0..<3 {
            health.failed(.read, onNode)
            health.succeeded()
        }
        #expect(log.messages("shared store unavailable").isEmpty)
        #expect(log.messages("shared store available").isEmpty)
        #expect(metrics.nodes.withLock { $0 } == Array(repeating: "127.0.0.1:7001", count: 3))

        health.failed(.read, .connection("no node answered for the slot map"))
        health.succeeded()
        #expect(log.messages("shared store unavailable").count == 1)
        #expect(log.messages("shared store available").count == 1)

        let lost = ClusterSlotMap.Node(host: "127.0.0.1", port: 7001)
        let promoted = ClusterSlotMap.Node(host: "127.0.0.1", port: 7004)
        health.shardChanged(ClusterShardChange(slots: "0-5460", node: lost, error: onNode))
        health.shardChanged(ClusterShardChange(slots: "0-5460", node: promoted, lostNode: lost))
        let lostLines = log.messages("shared store shard lost")
        let backLines = log.messages("shared store shard back")
        #expect(lostLines.map { "\($0.metadata["node"] ?? "")" } == ["127.0.0.1:7001"])
        #expect(backLines.map { "\($0.metadata["node"] ?? "")" } == ["127.0.0.1:7004"])
    }

    /// A server's single connection: its failures are logged as the store's (one line per change).
    @Test func aServerLogsTheStoresTurns() {
        let log = CapturedLog()
        let health = StoreHealth(logger: log.logger(), metrics: UncountedMetrics())
        health.failed(.read, RedisError.connection("refused").from("127.0.0.1:6379"))
        health.failed(.write, RedisError.connection("refused").from("127.0.0.1:6379"))
        health.succeeded()
        #expect(log.messages("shared store unavailable").count == 1)
        #expect(log.messages("shared store available").count == 1)
    }
}

/// Metrics that keep the node of every failure.
final class NodeMetrics: StoreMetrics {
    let nodes = Mutex<[String]>([])

    func storeFailed(_ operation: StoreOperation, node: String?) {
        if let node { nodes.withLock { $0.append(node) } }
    }
}
