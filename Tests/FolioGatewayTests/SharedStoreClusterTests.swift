import AsyncHTTPClient
import FolioEngine
import FolioRedis
import FolioRedisStore
import FolioTestSupport
import Foundation
import Synchronization
import Testing

/// `cache.redis.cluster` (docs/SHARED-STORE.md, "Redis Cluster") with real parts: a
/// 3-primary/3-replica cluster on loopback (one for the suite: starting one takes seconds),
/// two `folio` processes on it, and a real upstream that counts what it is asked.
@Suite("Shared store: several replicas on a Redis Cluster")
struct SharedStoreClusterTests {
    typealias Replica = SharedStoreTests.Replica

    static func yaml(upstream: String, cluster: RedisCluster) -> String {
        gatewayYAML(
            upstream: upstream + "/objects", admin: true,
            top: """
                cache:
                  staleWhileRevalidate: 0s
                  store: redis
                  redis:
                    cluster: [\(cluster.seeds.map { "redis://\($0)" }.joined(separator: ", "))]
                    keyPrefix: "test:"
                    commandTimeout: 500ms
                    connectTimeout: 300ms
                """)
    }

    /// The failover as a replica's log and `/metrics` tell it (docs/SHARED-STORE.md, "Redis
    /// Cluster"): one line when the shard was lost, naming the killed primary, one when it is
    /// back, naming the promoted one, whatever number of commands failed in between; and the
    /// failures counted under the killed primary's address.
    static func expectOneLinePerShardChange(
        _ replicas: [Replica], killed: ClusterSlotMap.Node, _ http: HTTPClient
    ) async throws {
        for replica in replicas {
            let back = try await replica.process.waitForLog("shard back") {
                $0["message"] as? String == "shared store shard back"
            }
            #expect(back["lost_node"] as? String == killed.description)
            #expect(back["node"] as? String != killed.description, "the promoted replica")
            let log = replica.process.logObjects
            let lines = log.compactMap { $0["message"] as? String }
            // Counted for the killed primary's shard: a loaded machine may time out a command
            // of another shard, which is that shard's own pair of lines.
            let lost = log.filter {
                $0["message"] as? String == "shared store shard lost" && $0["node"] as? String == killed.description
            }
            #expect(lost.count == 1, "\(lines)")
            #expect(lost.first?["slots"] as? String == back["slots"] as? String)
            let backs = log.filter {
                $0["message"] as? String == "shared store shard back"
                    && $0["lost_node"] as? String == killed.description
            }
            #expect(backs.count == 1, "\(lines)")
            #expect(!lines.contains("shared store unavailable"), "the shard's lines say it, once: \(lines)")
            let samples = try await replica.metrics(http)
            let onKilled = samples.values.filter {
                $0.key.hasPrefix("folio_store_node_errors_total{") && $0.key.contains("node=\"\(killed)\"")
            }
            #expect(onKilled.values.reduce(0, +) >= 1, "\(samples.values.keys.filter { $0.contains("node") })")
        }
    }

    /// One fill for both replicas, a purge that reaches the other over sharded pub/sub, and the
    /// primary of the route's shard killed under load: every request is answered while its
    /// replica is promoted, and sharing on that shard comes back by itself.
    @Test func replicasShareThroughAClusterAndRideOutAFailover() async throws {
        let list = SharedStoreTests.Versioned()
        try await RedisCluster.with { cluster in
            try await withTestUpstream({ _ in
                var reply = TestUpstream.Reply.json(list.body())
                reply.delay = .milliseconds(300)
                return reply
            }) { upstream in
                var replicas: [Replica] = []
                defer { for replica in replicas { replica.process.stop() } }
                for _ in 0..<2 {
                    let process = try FolioProcess(yaml: Self.yaml(upstream: upstream.baseURL, cluster: cluster))
                    let (client, admin) = try await process.ports()
                    replicas.append(Replica(process: process, client: client, admin: admin))
                }
                let (a, b) = (replicas[0], replicas[1])
                try await withHTTPClient { http in
                    let answers = try await SharedStoreTests.answers(8, from: replicas)
                    #expect(answers.allSatisfy { $0.status == 200 })
                    #expect(upstream.requestCount == 1, "one fetch for both replicas")

                    list.version.store(2, ordering: .relaxed)
                    #expect(try await http.answer(SharedStoreTests.purge(a), method: .POST).status == 204)
                    #expect(
                        try await SharedStoreTests.eventuallyServes(["v2"], b, http, within: .seconds(1)),
                        "the drop reached B over sharded pub/sub")
                    #expect(upstream.requestCount == 2)

                    // The primary that holds the route's keys goes away under load.
                    let map = try await RedisClusterClient(seeds: cluster.seeds, configuration: cluster.configuration)
                        .refresh()
                    let routeSlot = HashSlot.of(RedisSnapshotKeys(prefix: "test:").routeKeys("objects"))
                    let primary = try #require(map.primary(of: routeSlot))
                    let killed = ContinuousClock.now
                    try #require(cluster.server(at: primary)).stop()
                    var statuses: [Int] = []
                    while ContinuousClock.now - killed < .seconds(6) {
                        for replica in replicas { statuses.append(try await http.answer(replica.url).status) }
                        try await Task.sleep(for: .milliseconds(100))
                    }
                    #expect(!statuses.isEmpty && statuses.allSatisfy { $0 == 200 }, "every request answered")
                    try await cluster.waitUntilHealthy()

                    // Sharing is back: a purge on A reaches B, and B loads A's refill.
                    list.version.store(3, ordering: .relaxed)
                    var back = false
                    let promoted = ContinuousClock.now
                    while !back, ContinuousClock.now - promoted < .seconds(5) {
                        _ = try await http.answer(SharedStoreTests.purge(a), method: .POST)
                        back = try await SharedStoreTests.eventuallyServes(["v3"], b, http, within: .seconds(1))
                    }
                    #expect(back, "sharing resumed within 5 s of the promotion")
                    try await Self.expectOneLinePerShardChange(replicas, killed: primary, http)
                }
            }
        }
    }
}
