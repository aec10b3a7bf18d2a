import FolioRedis
import Foundation

/// A primary and its replica watched by three sentinels (`redis-server --sentinel`, Debian's
/// `redis-sentinel` in one binary), on loopback: down after one second, so a failover takes a
/// few. The data nodes ask for `password`, the sentinels for `sentinelPassword`.
public struct RedisSentinels: Sendable {
    public static let masterName = "folio-primary"

    public let servers: [RedisServer]
    public let sentinels: [RedisServer]
    public let password: String
    public let sentinelPassword: String

    /// The sentinels' addresses.
    public var nodes: [ClusterSlotMap.Node] { sentinels.map { ClusterSlotMap.Node(host: "127.0.0.1", port: $0.port) } }

    public static func with<T>(
        password: String = "data-s3cret", sentinelPassword: String = "sentinel-s3cret",
        _ body: (RedisSentinels) async throws -> T
    ) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-sentinel-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var started: [RedisServer] = []
        defer {
            for server in started { server.stop() }
            try? FileManager.default.removeItem(at: directory)
        }
        let auth = ["--requirepass", password, "--masterauth", password, "--repl-diskless-sync-delay", "0"]
        let primary = try await RedisServer.start(arguments: auth)
        started.append(primary)
        let replica = try await RedisServer.start(arguments: auth + ["--replicaof", "127.0.0.1", String(primary.port)])
        started.append(replica)
        var sentinels: [RedisServer] = []
        for index in 0..<3 {
            let port = RedisServer.nextPort()
            let file = directory.appendingPathComponent("sentinel-\(index).conf")
            try """
            port \(port)
            bind 127.0.0.1
            daemonize no
            dir \(directory.path)
            requirepass \(sentinelPassword)
            sentinel monitor \(masterName) 127.0.0.1 \(primary.port) 2
            sentinel auth-pass \(masterName) \(password)
            sentinel down-after-milliseconds \(masterName) 1000
            sentinel failover-timeout \(masterName) 4000

            """.write(to: file, atomically: true, encoding: .utf8)
            let pid = try RedisServer.spawn("/usr/bin/redis-server", [file.path, "--sentinel"])
            let sentinel = RedisServer(port: port, pid: pid, tls: nil)
            started.append(sentinel)
            sentinels.append(sentinel)
        }
        let set = RedisSentinels(
            servers: [primary, replica], sentinels: sentinels, password: password, sentinelPassword: sentinelPassword)
        try await set.waitUntilWatched()
        return try await body(set)
    }

    /// Waits until every sentinel knows the primary, its replica and the other sentinels, and
    /// the replica is in sync.
    public func waitUntilWatched(timeout: Duration = .seconds(30)) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            var ready = true
            for sentinel in sentinels {
                let client = RedisClient(
                    sentinel.configuration(password: sentinelPassword, commandTimeout: .seconds(2)))
                let primary = try? await client.send(["SENTINEL", "master", Self.masterName])
                await client.close()
                guard case .array(let fields?) = primary else {
                    ready = false
                    continue
                }
                let values = Dictionary(
                    stride(from: 0, to: fields.count - 1, by: 2).compactMap { index in
                        fields[index].string.map { ($0, fields[index + 1].string ?? "") }
                    }, uniquingKeysWith: { first, _ in first })
                if values["num-slaves"] != "1" || values["num-other-sentinels"] != "2" { ready = false }
            }
            for server in servers where server.isRunning {
                let client = RedisClient(server.configuration(password: password, commandTimeout: .seconds(2)))
                let info = (try? await client.send(["INFO", "replication"]))?.string ?? ""
                await client.close()
                if info.contains("role:slave"), !info.contains("master_link_status:up") { ready = false }
            }
            if ready { return }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw RedisTestFailure("the sentinels did not come to watch the primary")
    }

    /// The data node running at `node`'s port.
    public func server(at node: ClusterSlotMap.Node) -> RedisServer? { servers.first { $0.port == node.port } }
}
