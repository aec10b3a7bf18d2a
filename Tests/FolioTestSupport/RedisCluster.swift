import FolioRedis
import Foundation
import Synchronization

/// A real Redis Cluster on loopback: three primaries with a replica each (`redis-server
/// --cluster-enabled yes`, `redis-cli --cluster create --cluster-replicas 1`), a node timeout
/// of one second so a failover takes a few seconds. Started once per test that needs it, and
/// stopped after `body`.
public struct RedisCluster: Sendable {
    public let nodes: [RedisServer]
    public let directory: URL

    /// The nodes' addresses, as seeds.
    public var seeds: [ClusterSlotMap.Node] { nodes.map { ClusterSlotMap.Node(host: "127.0.0.1", port: $0.port) } }

    /// Settings of every node's connection (host and port are each node's).
    public var configuration: RedisConfiguration { nodes[0].configuration(commandTimeout: .seconds(5)) }

    public static func with<T>(_ body: (RedisCluster) async throws -> T) async throws -> T {
        // A cluster that fails to form on a busy machine is started anew, on other ports.
        var attempt = 1
        while true {
            let cluster: RedisCluster
            do {
                cluster = try await start()
            } catch {
                guard attempt < 3 else { throw error }
                attempt += 1
                continue
            }
            defer { cluster.stop() }
            return try await body(cluster)
        }
    }

    /// Ports of cluster nodes: below 7000, so that each node's bus port (its port + 10000) is neither in the range
    /// of the other test servers (`RedisServer.nextPort`, 20000 and up) nor in the kernel's ephemeral range.
    private static let ports = Atomic<Int>(Int.random(in: 0..<1_000))

    private static func nextPort() -> Int {
        while true {
            let port = 5_000 + ports.wrappingAdd(1, ordering: .relaxed).oldValue % 2_000
            if !RedisServer.isListening(port), !RedisServer.isListening(port + 10_000) { return port }
        }
    }

    func stop() {
        for node in nodes { node.stop() }
        try? FileManager.default.removeItem(at: directory)
    }

    private static func start() async throws -> RedisCluster {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-cluster-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var nodes: [RedisServer] = []
        var formed = false
        defer {
            if !formed {
                for node in nodes { node.stop() }
                try? FileManager.default.removeItem(at: directory)
            }
        }
        for index in 0..<6 {
            nodes.append(
                try await RedisServer.start(
                    arguments: [
                        "--cluster-enabled", "yes", "--cluster-node-timeout", "1000",
                        // Replicas sync at once (not after the 5 s default delay), and one is always
                        // eligible to take over, so a killed primary's replica is promoted in seconds.
                        "--repl-diskless-sync-delay", "0", "--cluster-replica-validity-factor", "0",
                        "--cluster-config-file", directory.appendingPathComponent("nodes-\(index).conf").path,
                        "--dir", directory.path,
                    ], port: nextPort()))
        }
        let cluster = RedisCluster(nodes: nodes, directory: directory)
        let status = try await RedisServer.runToEnd(
            "/usr/bin/redis-cli",
            ["--cluster", "create"] + nodes.map { "127.0.0.1:\($0.port)" } + [
                "--cluster-replicas", "1", "--cluster-yes",
            ])
        guard status == 0 else { throw RedisTestFailure("redis-cli --cluster create failed (\(status))") }
        try await cluster.waitUntilHealthy()
        formed = true
        return cluster
    }

    /// Waits until every running node says `cluster_state:ok`, knows three primaries, and sees
    /// every running node online (replicas included: one still loading cannot take over).
    public func waitUntilHealthy(timeout: Duration = .seconds(30)) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            var healthy = true
            for node in nodes where node.isRunning {
                let client = RedisClient(node.configuration(commandTimeout: .seconds(2)))
                let info = (try? await client.send(["CLUSTER", "INFO"]))?.string ?? ""
                let shards = try? await client.send(["CLUSTER", "SHARDS"])
                await client.close()
                if !info.contains("cluster_state:ok") || !info.contains("cluster_size:3")
                    || Self.online(shards) < nodes.filter(\.isRunning).count
                {
                    healthy = false
                }
            }
            if healthy { return }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw RedisTestFailure("the cluster did not become healthy")
    }

    /// How many nodes a `CLUSTER SHARDS` answer says are online.
    static func online(_ shards: RESPValue?) -> Int {
        guard case .array(let shards?) = shards else { return 0 }
        var count = 0
        for case .array(let fields?) in shards {
            for index in stride(from: 0, to: fields.count - 1, by: 2) where fields[index].string == "nodes" {
                guard case .array(let nodes?) = fields[index + 1] else { continue }
                for case .array(let node?) in nodes {
                    let health = stride(from: 0, to: node.count - 1, by: 2).first { node[$0].string == "health" }
                    if let health, node[health + 1].string == "online" { count += 1 }
                }
            }
        }
        return count
    }

    /// The node running at `node`'s port.
    public func server(at node: ClusterSlotMap.Node) -> RedisServer? { nodes.first { $0.port == node.port } }
}
