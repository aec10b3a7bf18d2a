import AsyncHTTPClient
import FolioRedis
import FolioTestSupport
import Foundation
import Testing

/// `cache.redis.sentinel` (docs/SHARED-STORE.md, "Sentinel") with real parts: a primary, its
/// replica and three sentinels on loopback (separate passwords for sentinels and data nodes),
/// two `folio` processes on them, and a real upstream that counts what it is asked.
@Suite("Shared store: several replicas behind Sentinel")
struct SharedStoreSentinelTests {
    typealias Replica = SharedStoreTests.Replica

    /// One fill for both replicas; then the primary killed: every request answered while the
    /// sentinels promote the replica, and sharing (a purge reaching the other replica) back.
    @Test func replicasShareThroughTheSentinelsPrimaryAndFollowAFailover() async throws {
        let list = SharedStoreTests.Versioned()
        try await RedisSentinels.with { set in
            try await withTestUpstream({ _ in .json(list.body()) }) { upstream in
                let nodes = set.nodes.map { "redis://\($0)" }.joined(separator: ", ")
                let yaml = gatewayYAML(
                    upstream: upstream.baseURL + "/objects", admin: true,
                    top: """
                        cache:
                          staleWhileRevalidate: 0s
                          store: redis
                          redis:
                            sentinel: { nodes: [\(nodes)], masterName: \(RedisSentinels.masterName) }
                            keyPrefix: "test:"
                            commandTimeout: 500ms
                            connectTimeout: 300ms
                        """)
                var replicas: [Replica] = []
                defer { for replica in replicas { replica.process.stop() } }
                for _ in 0..<2 {
                    let process = try FolioProcess(
                        yaml: yaml,
                        environment: [
                            "FOLIO_REDIS_PASSWORD": set.password, "FOLIO_REDIS_SENTINEL_PASSWORD": set.sentinelPassword,
                        ])
                    let (client, admin) = try await process.ports()
                    replicas.append(Replica(process: process, client: client, admin: admin))
                }
                let (a, b) = (replicas[0], replicas[1])
                try await withHTTPClient { http in
                    #expect(try SharedStoreTests.tags(try await http.answer(a.url)) == ["v1"])
                    #expect(try SharedStoreTests.tags(try await http.answer(b.url)) == ["v1"])
                    #expect(upstream.requestCount == 1, "B loaded A's list from the primary")

                    let killed = ContinuousClock.now
                    set.servers[0].stop()
                    var statuses: [Int] = []
                    while ContinuousClock.now - killed < .seconds(5) {
                        for replica in replicas { statuses.append(try await http.answer(replica.url).status) }
                        try await Task.sleep(for: .milliseconds(100))
                    }
                    #expect(!statuses.isEmpty && statuses.allSatisfy { $0 == 200 }, "every request answered")

                    list.version.store(2, ordering: .relaxed)
                    var back = false
                    let deadline = ContinuousClock.now + .seconds(30)
                    while !back, ContinuousClock.now < deadline {
                        _ = try await http.answer(SharedStoreTests.purge(a), method: .POST)
                        back = try await SharedStoreTests.eventuallyServes(["v2"], b, http, within: .seconds(1))
                    }
                    #expect(back, "sharing resumed on the promoted replica")
                }
            }
        }
    }
}
