import FolioRedis
import Foundation
import NIOSSL
import Synchronization

/// A real `redis-server` (Debian's package) on a free loopback port, for the life of `body`.
///
/// Spawned with `posix_spawn` rather than Foundation's `Process`, whose `run()` crashed (a
/// `memmove` past a buffer) once in a parallel test run; the signal mask is reset for the child,
/// and its output goes to /dev/null.
public struct RedisServer: Sendable {
    public let port: Int
    public let pid: pid_t

    /// Set when the server speaks TLS only (`--tls-port`): what clients must trust.
    public var tls: TLSFiles?

    public static func with<T>(
        arguments: [String] = [], port: Int? = nil, tls: TLSFiles? = nil, _ body: (RedisServer) async throws -> T
    ) async throws -> T {
        let server = try await start(arguments: arguments, port: port, tls: tls)
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
    public static func start(arguments: [String] = [], port fixed: Int? = nil, tls: TLSFiles? = nil) async throws
        -> RedisServer
    {
        guard
            let path = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].first(
                where: FileManager.default.isExecutableFile)
        else { throw RedisTestFailure("redis-server is not installed (apt-get install redis-server)") }
        for _ in 0..<(fixed == nil ? 20 : 1) {
            let port = fixed ?? nextPort()
            // Something else listens there (a server another test process left behind): its
            // answers would pass for ours before ours exits on the taken port.
            if fixed == nil, isListening(port) { continue }
            let pid = try spawn(
                path,
                [
                    "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                    "--daemonize", "no", "--loglevel", "warning",
                ] + (tls?.serverArguments(port: port) ?? []) + arguments)
            let server = RedisServer(port: port, pid: pid, tls: tls)
            // Ready once it accepts a connection; gone at once when the port was taken.
            for _ in 0..<100 {
                guard server.isRunning else { break }
                let configuration = server.configuration()
                if let connection = try? await RedisConnection.connect(configuration) {
                    await connection.close()
                    return server
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            server.stop()
        }
        throw RedisTestFailure("redis-server did not start")
    }

    /// Whether a TCP connection to `127.0.0.1:port` is accepted.
    static func isListening(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Ports handed to new servers: consecutive from a random start, so two tests of this
    /// process running in parallel never pick the same one (a second server on a taken port
    /// exits, but its readiness check would reach the first).
    private static let ports = Atomic<Int>(Int.random(in: 0..<10_000))

    static func nextPort() -> Int {
        20_000 + ports.wrappingAdd(1, ordering: .relaxed).oldValue % 12_768
    }

    /// Runs `path` with `arguments` to its end (stdout and stderr to /dev/null) and returns its
    /// exit status, polling instead of blocking a thread of the pool.
    static func runToEnd(_ path: String, _ arguments: [String]) async throws -> Int32 {
        let pid = try spawn(path, arguments)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 { try await Task.sleep(for: .milliseconds(10)) }
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    }

    /// Starts `path` with `arguments`, stdout and stderr to /dev/null, no other descriptor
    /// inherited, no signal blocked; one launch at a time with Foundation's
    /// (`ChildProcess.launching`).
    static func spawn(_ path: String, _ arguments: [String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Nothing else is inherited: a pipe another test holds open (a log drain, a child's
        // stderr) would otherwise stay open in this server, and that test's read to end of file
        // would wait, blocking a thread of the pool, until the server is stopped. Two such
        // waits froze every test for over a minute.
        // (glibc 2.34's `posix_spawn_file_actions_addclosefrom_np`, which Swift's Glibc does
        // not import, looked up by name.)
        if let closeFrom = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            guard unsafeBitCast(closeFrom, to: CloseFrom.self)(&actions, 3) == 0 else {
                throw RedisTestFailure("posix_spawn_file_actions_addclosefrom_np failed")
            }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let status = ChildProcess.launching { posix_spawn(&pid, path, &actions, &attributes, argv, environ) }
        guard status == 0 else { throw RedisTestFailure("posix_spawn \(path) failed: \(status)") }
        return pid
    }

    /// Whether the server process has not exited (an exited one is reaped here).
    public var isRunning: Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == 0
    }

    /// SIGSTOP: the server keeps its connections open and answers nothing (a hung Redis).
    public func pause() { kill(pid, SIGSTOP) }

    /// SIGCONT after `pause`.
    public func resume() { kill(pid, SIGCONT) }

    /// SIGKILL, then the pid is reaped, so no zombie outlives the test.
    public func stop() {
        kill(pid, SIGKILL)
        for _ in 0..<200 {
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid || (reaped == -1 && errno == ECHILD) { break }
            usleep(10_000)
        }
    }

    public func configuration(
        password: String? = nil, database: Int = 0, commandTimeout: Duration = .seconds(10)
    ) -> RedisConfiguration {
        RedisConfiguration(
            host: "127.0.0.1", port: port, password: password, database: database, commandTimeout: commandTimeout,
            tls: tls?.client, clientCertificate: tls?.authenticatesClients == true ? tls?.clientCertificate : nil)
    }
}

public struct RedisTestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A throwaway certificate authority and a server certificate for `localhost` and 127.0.0.1,
/// made with the `openssl` command, for a TLS-only test Redis; with `authenticatingClients`,
/// a client certificate of the same authority too, which the server then asks clients for.
public struct TLSFiles: Sendable {
    public let directory: URL
    /// The server refuses clients without a certificate of the authority (mutual TLS).
    public let authenticatesClients: Bool

    public var caFile: String { directory.appendingPathComponent("ca.crt").path }
    public var certificateFile: String { directory.appendingPathComponent("server.crt").path }
    public var keyFile: String { directory.appendingPathComponent("server.key").path }
    /// With `authenticatesClients`: the client's certificate and key.
    public var clientCertificate: RedisClientCertificateFiles {
        RedisClientCertificateFiles(
            chain: directory.appendingPathComponent("client.crt").path,
            key: directory.appendingPathComponent("client.key").path)
    }

    /// A client that trusts the test authority only.
    public var client: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .file(caFile)
        return configuration
    }

    func serverArguments(port: Int) -> [String] {
        [
            "--port", "0", "--tls-port", String(port), "--tls-cert-file", certificateFile, "--tls-key-file", keyFile,
            "--tls-ca-cert-file", caFile, "--tls-auth-clients", authenticatesClients ? "yes" : "no",
        ]
    }

    public static func make(authenticatingClients: Bool = false) async throws -> TLSFiles {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try "subjectAltName=DNS:localhost,IP:127.0.0.1\n".write(
            to: directory.appendingPathComponent("san.ext"), atomically: true, encoding: .utf8)
        try "extendedKeyUsage=clientAuth\n".write(
            to: directory.appendingPathComponent("client.ext"), atomically: true, encoding: .utf8)
        // `posix_spawn`, not Foundation's `Process`: its `run()` crashed the test process in CI
        // (a `memmove` past a buffer) right here. Absolute paths instead of a working directory.
        let at = directory.path + "/"
        let client = [
            "req -newkey rsa:2048 -nodes -keyout \(at)client.key -out \(at)client.csr -subj /CN=folio",
            "x509 -req -in \(at)client.csr -CA \(at)ca.crt -CAkey \(at)ca.key -CAcreateserial -out \(at)client.crt"
                + " -days 1 -extfile \(at)client.ext",
        ]
        for arguments in [
            "req -x509 -newkey rsa:2048 -nodes -keyout \(at)ca.key -out \(at)ca.crt -days 1 -subj /CN=FolioTestCA",
            "req -newkey rsa:2048 -nodes -keyout \(at)server.key -out \(at)server.csr -subj /CN=localhost",
            "x509 -req -in \(at)server.csr -CA \(at)ca.crt -CAkey \(at)ca.key -CAcreateserial -out \(at)server.crt"
                + " -days 1 -extfile \(at)san.ext",
        ] + (authenticatingClients ? client : []) {
            let status = try await RedisServer.runToEnd(
                "/usr/bin/openssl", arguments.split(separator: " ").map(String.init))
            guard status == 0 else { throw RedisTestFailure("openssl \(arguments) failed (\(status))") }
        }
        return TLSFiles(directory: directory, authenticatesClients: authenticatingClients)
    }
}
