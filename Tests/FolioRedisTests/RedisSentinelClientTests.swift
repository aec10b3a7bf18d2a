import FolioTestSupport
import Foundation
import Testing

@testable import FolioRedis

/// `RedisSentinelClient` against a real primary, its replica and three sentinels on loopback,
/// with separate passwords for the data nodes and the sentinels: discovery, a failover the
/// sentinels are asked for (the old primary is demoted: `+switch-master`, `READONLY`), and a
/// primary killed under load.
@Suite("RedisSentinelClient with real sentinels")
struct RedisSentinelClientTests {
    @Test func writesFollowThePrimaryThroughFailoversAndNeverReachAReplica() async throws {
        try await RedisSentinels.with { set in
            let client = RedisSentinelClient(
                sentinels: set.nodes, masterName: RedisSentinels.masterName,
                configuration: RedisConfiguration(host: "", password: set.password, commandTimeout: .seconds(2)),
                sentinelConfiguration: RedisConfiguration(
                    host: "", password: set.sentinelPassword, commandTimeout: .seconds(2)))
            defer { Task { await client.close() } }
            try await client.send(["SET", "k", "0"])
            let first = try #require(client.primary)
            #expect(first.port == set.servers[0].port, "the sentinels named the primary")

            // A failover with both servers up: the old primary becomes a replica.
            let sentinel = RedisClient(set.sentinels[0].configuration(password: set.sentinelPassword))
            defer { Task { await sentinel.close() } }
            try await sentinel.send(["SENTINEL", "FAILOVER", RedisSentinels.masterName])
            try await writeUntilMoved(client, from: first, key: "k")
            let second = try #require(client.primary)
            #expect(second.port == set.servers[1].port)
            try await set.waitUntilWatched()

            // The new primary killed: the sentinels promote the old one again.
            try #require(set.server(at: second)).stop()
            try await writeUntilMoved(client, from: second, key: "k")
            #expect(client.primary?.port == first.port)
            let direct = RedisClient(set.servers[0].configuration(password: set.password))
            defer { Task { await direct.close() } }
            #expect(try await direct.send(["GET", "k"]).string != nil, "the writes reached the primary")
        }
    }

    /// Writes a counter through `client` until its primary is no longer `old`; every write that
    /// succeeds went to a primary (a replica answers `READONLY`, which the client never passes
    /// on: it asks the sentinels and sends the write there).
    func writeUntilMoved(_ client: RedisSentinelClient, from old: ClusterSlotMap.Node, key: String) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        var written = 0
        while ContinuousClock.now < deadline {
            let result = await Self.increment(client, key)
            switch result {
            case .success:
                written += 1
                if client.primary != nil, client.primary != old { return }
            case .failure(let error):
                #expect(!error.message.hasPrefix("READONLY"), "a write never fails for reaching a replica")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("the primary did not move from \(old) within 30 s (\(written) writes)")
    }

    static func increment(_ client: RedisSentinelClient, _ key: String) async -> Result<Void, RedisError> {
        do throws(RedisError) {
            try await client.send(["INCR", key])
            return .success(())
        } catch {
            return .failure(error)
        }
    }
}
