import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// Where and how to reach Redis.
public struct RedisConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// `AUTH` on connect: the password (and the ACL user, when set). Never logged.
    public var username: String?
    public var password: String?
    /// `SELECT` on connect when not 0.
    public var database: Int
    public var connectTimeout: Duration
    /// How long one command may wait for its answer; beyond it the command fails and the
    /// connection is closed (later answers could no longer be matched to their commands).
    public var commandTimeout: Duration
    /// `rediss://`: TLS with these settings (`TLSConfiguration.makeClientConfiguration()`
    /// checks the server's certificate against the system's trust roots and its name).
    public var tls: TLSConfiguration?
    /// With `tls`: the certificate the client shows (mutual TLS), read from its files by every
    /// connection, so a renewed certificate applies from the next reconnect.
    public var clientCertificate: RedisClientCertificateFiles?
    public var parser: RESPParser

    public init(
        host: String, port: Int = 6379, username: String? = nil, password: String? = nil, database: Int = 0,
        connectTimeout: Duration = .seconds(1), commandTimeout: Duration = .milliseconds(500),
        tls: TLSConfiguration? = nil, clientCertificate: RedisClientCertificateFiles? = nil,
        parser: RESPParser = RESPParser()
    ) {
        self.tls = tls
        self.clientCertificate = clientCertificate
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
        self.parser = parser
    }
}

/// The PEM files of a client certificate (leaf first, then any intermediates) and of its
/// private key (unencrypted).
public struct RedisClientCertificateFiles: Sendable, Equatable {
    public var chain: String
    public var key: String

    public init(chain: String, key: String) {
        self.chain = chain
        self.key = key
    }

    /// `settings` showing this certificate, read from the files now.
    public func apply(to settings: TLSConfiguration) throws -> TLSConfiguration {
        var settings = settings
        settings.certificateChain = try NIOSSLCertificate.fromPEMFile(chain).map { .certificate($0) }
        settings.privateKey = .privateKey(try NIOSSLPrivateKey(file: key, format: .pem))
        return settings
    }
}

/// One connection to Redis speaking RESP2, for exactly the commands Folio uses. Commands may be
/// sent from any number of tasks at once; they are pipelined on the one connection.
///
/// Small on purpose (the local package mirror has no Redis client): it can be swapped for a
/// maintained package without touching its callers beyond this type.
public final class RedisConnection: Sendable {
    let channel: any Channel
    let commandTimeout: Duration
    /// Set when a command timed out: the channel is closing (asynchronously), and no later
    /// command may be written to it meanwhile, since its answer could not be matched.
    private let abandoned = Atomic<Bool>(false)

    private init(channel: any Channel, commandTimeout: Duration) {
        self.channel = channel
        self.commandTimeout = commandTimeout
    }

    /// Connects, then authenticates and selects the database when configured.
    ///
    /// - Parameter onPush: for a connection that subscribes to channels: called on the event
    ///   loop with every published message.
    public static func connect(
        _ configuration: RedisConfiguration, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        onPush: (@Sendable (RESPValue) -> Void)? = nil
    ) async throws(RedisError) -> RedisConnection {
        let parser = configuration.parser
        let tls: NIOSSLContext?
        if let settings = configuration.tls {
            do {
                tls = try NIOSSLContext(configuration: configuration.clientCertificate?.apply(to: settings) ?? settings)
            } catch {
                throw .connection("cannot set up TLS: \(error)")
            }
        } else {
            tls = nil
        }
        // The name the certificate must carry (and SNI); an IP address is checked as such.
        let serverName = IPAddressCheck.isIPAddress(configuration.host) ? nil : configuration.host
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(TimeAmount(configuration.connectTimeout))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        let handler = try NIOSSLClientHandler(context: tls, serverHostname: serverName)
                        try channel.pipeline.syncOperations.addHandler(handler)
                    }
                    try channel.pipeline.syncOperations.addHandler(RESPHandler(parser: parser, onPush: onPush))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: configuration.host, port: configuration.port).get()
        } catch {
            throw .connection("cannot connect to \(configuration.host):\(configuration.port): \(error)")
        }
        let connection = RedisConnection(channel: channel, commandTimeout: configuration.commandTimeout)
        do throws(RedisError) {
            if let password = configuration.password {
                let command = ["AUTH"] + (configuration.username.map { [$0] } ?? []) + [password]
                _ = try await connection.send(command)
            }
            if configuration.database != 0 {
                _ = try await connection.send(["SELECT", String(configuration.database)])
            }
        } catch {
            await connection.close()
            throw error
        }
        return connection
    }

    /// Sends one command and waits for its answer. An error answer from Redis throws a server
    /// error; the connection stays usable.
    @discardableResult
    public func send(_ command: [String]) async throws(RedisError) -> RESPValue {
        try await send(command.map { Array($0.utf8) })
    }

    /// The same with binary-safe arguments.
    @discardableResult
    public func send(_ command: [[UInt8]]) async throws(RedisError) -> RESPValue {
        guard isOpen else { throw .connection("the connection is closed") }
        var bytes = channel.allocator.buffer(capacity: command.reduce(16) { $0 + $1.count + 16 })
        RESPEncoder.encode(command, into: &bytes)
        let loop = channel.eventLoop
        let reply = PendingReply(loop.makePromise(of: RESPValue.self))
        let channel = self.channel
        let name = command.first.map { String(decoding: $0.prefix(16), as: UTF8.self) } ?? ""
        let timeout = loop.scheduleTask(in: TimeAmount(commandTimeout)) {
            self.abandoned.store(true, ordering: .relaxed)
            reply.fail(.timeout("no answer to \(name) within \(self.commandTimeout)"))
            channel.close(promise: nil)
        }
        channel.writeAndFlush((bytes, reply)).whenFailure { error in
            reply.fail(.connection("cannot send \(name): \(error)"))
        }
        let value: RESPValue
        do {
            value = try await reply.promise.futureResult.get()
        } catch let error as RedisError {
            timeout.cancel()
            throw error
        } catch {
            timeout.cancel()
            throw .connection("\(error)")
        }
        timeout.cancel()
        if case .error(let message) = value { throw .server(message) }
        return value
    }

    /// Sends `commands` in one write and waits for all their answers (pipelining): one round
    /// trip instead of one per command. Server errors come back as `.error` values in their
    /// place; a connection problem or timeout fails the whole batch.
    public func pipeline(_ commands: [[[UInt8]]]) async throws(RedisError) -> [RESPValue] {
        guard !commands.isEmpty else { return [] }
        guard isOpen else { throw .connection("the connection is closed") }
        let loop = channel.eventLoop
        let channel = self.channel
        let replies = commands.map { _ in PendingReply(loop.makePromise(of: RESPValue.self)) }
        let timeout = loop.scheduleTask(in: TimeAmount(commandTimeout)) {
            self.abandoned.store(true, ordering: .relaxed)
            for reply in replies { reply.fail(.timeout("no answer to a pipeline within \(self.commandTimeout)")) }
            channel.close(promise: nil)
        }
        defer { timeout.cancel() }
        for (command, reply) in zip(commands, replies) {
            var bytes = channel.allocator.buffer(capacity: command.reduce(16) { $0 + $1.count + 16 })
            RESPEncoder.encode(command, into: &bytes)
            channel.write((bytes, reply)).whenFailure { error in
                reply.fail(.connection("cannot send a pipeline: \(error)"))
            }
        }
        channel.flush()
        var values: [RESPValue] = []
        values.reserveCapacity(replies.count)
        for reply in replies {
            do {
                values.append(try await reply.promise.futureResult.get())
            } catch let error as RedisError {
                throw error
            } catch {
                throw .connection("\(error)")
            }
        }
        return values
    }

    /// Waits until the connection closes (the server went away, or `close`).
    public func closed() async {
        try? await channel.closeFuture.get()
    }

    /// Whether the connection is still open (a timeout or protocol error closes it).
    public var isOpen: Bool { channel.isActive && !abandoned.load(ordering: .relaxed) }

    public func close() async {
        try? await channel.close()
    }
}

enum IPAddressCheck {
    /// Whether `host` is an IPv4 or IPv6 address rather than a name.
    static func isIPAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }
}
