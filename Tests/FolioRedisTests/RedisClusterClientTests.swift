import FolioTestSupport
import Foundation
import Synchronization
import Testing

@testable import FolioRedis

/// `RedisClusterClient` against a real 3-primary/3-replica cluster on loopback, one cluster for
/// the suite's steps (starting one takes seconds): routing by slot, pipelines split by node,
/// `ASK` during a slot's migration, `MOVED` after a resharding, sharded pub/sub, and a primary
/// killed under load.
@Suite("RedisClusterClient on a real cluster")
struct RedisClusterClientTests {
    @Test func commandsFollowTheSlotMapThroughAReshardingAndAFailover() async throws {
        try await RedisCluster.with { cluster in
            let client = RedisClusterClient(seeds: cluster.seeds, configuration: cluster.configuration)
            defer { Task { await client.close() } }
            let map = try await client.refresh()
            #expect(map.nodes.count == 3, "three primaries serve the slots")
            #expect(map.primaries.allSatisfy { $0 != nil }, "every slot is served")

            // Keys of every slot range, one command each and in pipelines split by node.
            let keys = (0..<60).map { "key:\($0)" }
            for key in keys { try await client.send(["SET", key, "v-\(key)"]) }
            let replies = try await client.pipeline(keys.map { [Array("GET".utf8), Array($0.utf8)] })
            #expect(replies.map(\.string) == keys.map { "v-\($0)" }, "answers in the commands' order")
            #expect(Set(keys.compactMap { map.primary(of: HashSlot.of($0)) }).count == 3, "the keys span all nodes")
            // A script over keys of one hash tag runs on that tag's node.
            let script = try await client.send([
                "EVAL", "redis.call('SET', KEYS[1], 'a'); redis.call('SET', KEYS[2], 'b'); return 1", "2",
                "{route}:one", "{route}:two",
            ])
            #expect(script == .integer(1))

            // Sharded pub/sub: a subscriber on the channel's shard hears SPUBLISH.
            let heard = Mutex<[String]>([])
            let subscribed = Atomic<Bool>(false)
            let subscriber = RedisSubscriber(cluster: client, channel: "{folio}events")
            let listening = Task {
                await subscriber.run(
                    onMessage: { payload in heard.withLock { $0.append(String(decoding: payload, as: UTF8.self)) } },
                    onState: { state in if case .success = state { subscribed.store(true, ordering: .relaxed) } })
            }
            defer { listening.cancel() }
            #expect(await eventually(timeout: .seconds(10)) { subscribed.load(ordering: .relaxed) })
            try await client.publish("{folio}events", Array("hello".utf8))
            #expect(await eventually(timeout: .seconds(5)) { heard.withLock { $0 } == ["hello"] })

            // A slot halfway through a migration: its migrated key (and a new one) are where the
            // source's `ASK` sends them, after `ASKING`, alone and in a pipeline; the key not yet
            // migrated is read on the source; the map keeps naming the source (ASK is not MOVED).
            let askSlot = HashSlot.of("{ask}:migrated")
            let askFrom = try #require(map.primary(of: askSlot))
            let askTo = try #require(map.nodes.first { $0 != askFrom })
            try await client.send(["SET", "{ask}:migrated", "m"])
            try await client.send(["SET", "{ask}:staying", "s"])
            try await startMigration(slot: askSlot, from: askFrom, to: askTo, keys: ["{ask}:migrated"])
            #expect(try await client.send(["GET", "{ask}:migrated"]).string == "m", "ASK is followed")
            #expect(try await client.send(["GET", "{ask}:staying"]).string == "s")
            try await client.send(["SET", "{ask}:new", "n"])
            let onTarget = RedisClient(RedisConfiguration(host: askTo.host, port: askTo.port))
            let stored = try await onTarget.pipeline([
                [Array("ASKING".utf8)], [Array("GET".utf8), Array("{ask}:new".utf8)],
            ])
            await onTarget.close()
            #expect(stored.last?.string == "n", "a new key of a migrating slot is written on the target")
            let asked = try await client.pipeline(
                ["{ask}:migrated", "{ask}:staying", "{ask}:new"].map { [Array("GET".utf8), Array($0.utf8)] })
            #expect(asked.map(\.string) == ["m", "s", "n"])
            #expect(client.slotMap?.primary(of: askSlot) == askFrom, "ASK leaves the map as it was")
            try await migrate(slot: askSlot, from: askFrom, to: askTo, cluster: cluster)

            // Resharding moves the slot of `moved` (with its key) to another primary: the client's
            // map is stale; it follows MOVED and learns the new owner.
            let moved = "key:0"
            let slot = HashSlot.of(moved)
            let from = try #require(map.primary(of: slot))
            let to = try #require(map.nodes.first { $0 != from })
            try await migrate(slot: slot, from: from, to: to, cluster: cluster)
            #expect(client.slotMap?.primary(of: slot) == from, "the map is stale")
            #expect(try await client.send(["GET", moved]).string == "v-\(moved)", "MOVED is followed")
            #expect(
                try await eventually(timeout: .seconds(5), asking: { client.slotMap?.primary(of: slot) == to }),
                "and the map refreshed")

            // A primary killed under load: commands for its slots fail fast (no hang) until its
            // replica is promoted, then work again with the data it had replicated.
            let victim = try #require(client.slotMap?.primary(of: HashSlot.of("key:1")))
            let victimKeys = keys.filter { client.slotMap?.primary(of: HashSlot.of($0)) == victim }
            let victimClient = RedisClient(RedisConfiguration(host: victim.host, port: victim.port))
            #expect(try await victimClient.send(["WAIT", "1", "5000"]) == .integer(1), "its replica has the keys")
            await victimClient.close()
            let server = try #require(cluster.server(at: victim))
            server.stop()
            var failures = 0
            var answeredAgain = false
            let deadline = ContinuousClock.now + .seconds(30)
            while ContinuousClock.now < deadline {
                let started = ContinuousClock.now
                do {
                    let value = try await client.send(["GET", victimKeys[0]])
                    if value.string == "v-\(victimKeys[0])" {
                        answeredAgain = true
                        break
                    }
                } catch {
                    failures += 1
                    #expect(ContinuousClock.now - started < .seconds(6), "a command on a dead node does not hang")
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(answeredAgain, "the promoted replica answers")
            #expect(client.slotMap?.primary(of: HashSlot.of(victimKeys[0])) != victim)
            let after = try await client.pipeline(victimKeys.map { [Array("GET".utf8), Array($0.utf8)] })
            #expect(after.map(\.string) == victimKeys.map { "v-\($0)" })
        }
    }

    /// Starts moving `slot` from `from` to `to` (IMPORTING/MIGRATING) and moves `keys` only:
    /// the source answers `ASK` for them until `migrate` ends the move.
    func startMigration(slot: Int, from: ClusterSlotMap.Node, to: ClusterSlotMap.Node, keys: [String]) async throws {
        let source = RedisClient(RedisConfiguration(host: from.host, port: from.port))
        let target = RedisClient(RedisConfiguration(host: to.host, port: to.port))
        let sourceID = try #require(try await source.send(["CLUSTER", "MYID"]).string)
        let targetID = try #require(try await target.send(["CLUSTER", "MYID"]).string)
        try await target.send(["CLUSTER", "SETSLOT", String(slot), "IMPORTING", sourceID])
        try await source.send(["CLUSTER", "SETSLOT", String(slot), "MIGRATING", targetID])
        try await source.send(["MIGRATE", to.host, String(to.port), "", "0", "5000", "KEYS"] + keys)
        await source.close()
        await target.close()
    }

    /// Moves `slot` with its keys from `from` to `to`, as `redis-cli --cluster reshard` does
    /// (IMPORTING/MIGRATING, MIGRATE, then NODE on every primary).
    func migrate(
        slot: Int, from: ClusterSlotMap.Node, to: ClusterSlotMap.Node, cluster: RedisCluster
    ) async throws {
        let source = RedisClient(RedisConfiguration(host: from.host, port: from.port))
        let target = RedisClient(RedisConfiguration(host: to.host, port: to.port))
        defer {
            Task {
                await source.close()
                await target.close()
            }
        }
        let sourceID = try #require(try await source.send(["CLUSTER", "MYID"]).string)
        let targetID = try #require(try await target.send(["CLUSTER", "MYID"]).string)
        try await target.send(["CLUSTER", "SETSLOT", String(slot), "IMPORTING", sourceID])
        try await source.send(["CLUSTER", "SETSLOT", String(slot), "MIGRATING", targetID])
        while true {
            guard case .array(let keys?) = try await source.send(["CLUSTER", "GETKEYSINSLOT", String(slot), "100"]),
                !keys.isEmpty
            else { break }
            try await source.send(
                ["MIGRATE", to.host, String(to.port), "", "0", "5000", "KEYS"] + keys.compactMap(\.string))
        }
        for node in [target, source] { try await node.send(["CLUSTER", "SETSLOT", String(slot), "NODE", targetID]) }
        try await cluster.waitUntilHealthy()
    }
}
