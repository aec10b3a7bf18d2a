import FolioRedis
import Foundation
import Testing

/// A real `redis-server` (Debian's package) on a free loopback port, for the life of `body`.
struct RedisServer {
    let port: Int
    let process: Process

    static func with<T>(
        arguments: [String] = [], port: Int? = nil, _ body: (RedisServer) async throws -> T
    ) async throws -> T {
        let server = try await start(arguments: arguments, port: port)
        do {
            let result = try await body(server)
            server.stop()
            return result
        } catch {
            server.stop()
            throw error
        }
    }

    /// On `port` when given (a restart), else on a random free one below the kernel's ephemeral
    /// range (32768 and up on Linux): a port that `bind(0)` never hands out, so while a test
    /// restarts its server on the same port, no server of a test running in parallel can have
    /// taken it.
    static func start(arguments: [String] = [], port fixed: Int? = nil) async throws -> RedisServer {
        guard
            let path = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].first(
                where: FileManager.default.isExecutableFile)
        else { throw RedisTestFailure("redis-server is not installed (apt-get install redis-server)") }
        for _ in 0..<(fixed == nil ? 20 : 1) {
            let port = fixed ?? Int.random(in: 20_000..<32_768)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments =
                [
                    "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                    "--daemonize", "no", "--loglevel", "warning",
                ] + arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Ready once it accepts a connection; gone at once when the port was taken.
            for _ in 0..<100 {
                guard process.isRunning else { break }
                if let connection = try? await RedisConnection.connect(
                    RedisConfiguration(host: "127.0.0.1", port: port))
                {
                    await connection.close()
                    return RedisServer(port: port, process: process)
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            RedisServer(port: port, process: process).stop()
        }
        throw RedisTestFailure("redis-server did not start")
    }

    /// SIGKILL: the server inherits the spawning thread's signal mask, and Dispatch's threads
    /// block SIGTERM, so `terminate()` would not stop it.
    /// Foundation's `isRunning`/`waitUntilExit` were seen to report such a server gone while it
    /// still ran, so the pid is killed and reaped here directly.
    func stop() {
        let pid = process.processIdentifier
        kill(pid, SIGKILL)
        for _ in 0..<200 {
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid || (reaped == -1 && errno == ECHILD) { break }
            usleep(10_000)
        }
    }

    func configuration(
        password: String? = nil, database: Int = 0, commandTimeout: Duration = .seconds(2)
    ) -> RedisConfiguration {
        RedisConfiguration(
            host: "127.0.0.1", port: port, password: password, database: database, commandTimeout: commandTimeout)
    }
}

struct RedisTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
