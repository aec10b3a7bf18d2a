import Synchronization

/// A Sentinel-managed primary: the sentinels say which server is the primary
/// (`SENTINEL get-master-addr-by-name`), and every command goes to it over one reconnecting
/// connection (`RedisClient`).
///
/// Nothing is ever written to a replica: a server is used only once it says it is a primary
/// (`ROLE`). A failover is followed three ways: the sentinels' `+switch-master` message (a
/// subscription on one sentinel at a time), a `READONLY` answer (the server was demoted: the
/// command did not run, so it is sent again to the primary the sentinels name now), and a
/// failed connection (the primary is asked for again before the next command).
public final class RedisSentinelClient: RedisCommands {
    private struct State {
        var primary: (node: ClusterSlotMap.Node, client: RedisClient)?
        var discovering: Task<Result<RedisClient, RedisError>, Never>?
        var listening: Task<Void, Never>?
        var closed = false
    }

    public let sentinels: [ClusterSlotMap.Node]
    public let masterName: String
    /// Password, TLS and timeouts of the data nodes' connections (host and port: the primary's).
    public let configuration: RedisConfiguration
    /// Password, TLS and timeouts of the sentinels' connections.
    public let sentinelConfiguration: RedisConfiguration
    private let state = Mutex(State())

    public init(
        sentinels: [ClusterSlotMap.Node], masterName: String, configuration: RedisConfiguration,
        sentinelConfiguration: RedisConfiguration
    ) {
        self.sentinels = sentinels
        self.masterName = masterName
        self.configuration = configuration
        self.sentinelConfiguration = sentinelConfiguration
    }

    /// The primary in use now (nil before the first discovery, or after a failover was noticed).
    public var primary: ClusterSlotMap.Node? { state.withLock { $0.primary?.node } }

    @discardableResult
    public func send(_ command: [[UInt8]]) async throws(RedisError) -> RESPValue {
        let primary = try await client()
        do throws(RedisError) {
            return try await primary.send(command)
        } catch {
            guard error.message.hasPrefix("READONLY") else {
                if !error.isServerError { forget() }
                throw error
            }
            // Demoted: the command did not run. Once, on the primary the sentinels name now.
            forget()
            return try await client().send(command)
        }
    }

    public func pipeline(_ commands: [[[UInt8]]]) async throws(RedisError) -> [RESPValue] {
        let replies: [RESPValue]
        do throws(RedisError) {
            replies = try await client().pipeline(commands)
        } catch {
            if !error.isServerError { forget() }
            throw error
        }
        guard replies.contains(where: Self.isReadOnly) else { return replies }
        // Only the answers that were READONLY are sent again: the others did what they did.
        forget()
        var answered = replies
        let primary = try await client()
        for index in replies.indices where Self.isReadOnly(replies[index]) {
            do throws(RedisError) {
                answered[index] = try await primary.send(commands[index])
            } catch {
                guard error.isServerError else { throw error }
                answered[index] = .error(error.message)
            }
        }
        return answered
    }

    private static func isReadOnly(_ reply: RESPValue) -> Bool {
        if case .error(let message) = reply { return message.hasPrefix("READONLY") }
        return false
    }

    public func publish(_ channel: String, _ payload: [UInt8]) async throws(RedisError) {
        try await send([Array("PUBLISH".utf8), Array(channel.utf8), payload])
    }

    public func close() async {
        let (client, listening) = state.withLock { state in
            state.closed = true
            defer { (state.primary, state.listening) = (nil, nil) }
            return (state.primary?.client, state.listening)
        }
        listening?.cancel()
        await client?.close()
    }

    /// The primary's connection settings, discovered when not known (for the events
    /// subscription, which has its own connection).
    public func primaryConfiguration() async throws(RedisError) -> RedisConfiguration {
        try await client().configuration
    }

    /// The next command asks the sentinels which server is the primary.
    public func forget() {
        let old = state.withLock { state in
            defer { state.primary = nil }
            return state.primary?.client
        }
        if let old { Task { await old.close() } }
    }

    /// The primary's client, discovered once for all callers.
    private func client() async throws(RedisError) -> RedisClient {
        let task = state.withLock { state -> Task<Result<RedisClient, RedisError>, Never>? in
            if state.primary != nil { return nil }
            if let task = state.discovering { return task }
            let task = Task { await self.discover() }
            state.discovering = task
            return task
        }
        guard let task else {
            if let client = state.withLock({ $0.primary?.client }) { return client }
            return try await self.client()
        }
        let result = await task.value
        state.withLock { state in
            if state.discovering == task { state.discovering = nil }
        }
        startListening()
        return try result.get()
    }

    /// Asks each sentinel in turn for the primary's address, and keeps the first that is one.
    private func discover() async -> Result<RedisClient, RedisError> {
        var last = RedisError.connection("no sentinel named a primary for \(masterName)")
        for sentinel in sentinels {
            do throws(RedisError) {
                let node = try await primary(from: sentinel)
                var settings = configuration
                (settings.host, settings.port) = (node.host, node.port)
                let client = RedisClient(settings, initialBackoff: .milliseconds(50), maxBackoff: .milliseconds(500))
                guard case .array(let role?) = try await client.send(["ROLE"]), role.first?.string == "master" else {
                    await client.close()
                    throw .server("\(node) is not a primary (yet)")
                }
                state.withLock { $0.primary = (node, client) }
                return .success(client)
            } catch {
                last = error
            }
        }
        return .failure(last)
    }

    private func primary(from sentinel: ClusterSlotMap.Node) async throws(RedisError) -> ClusterSlotMap.Node {
        var settings = sentinelConfiguration
        (settings.host, settings.port) = (sentinel.host, sentinel.port)
        let connection = try await RedisConnection.connect(settings)
        defer { Task { await connection.close() } }
        let reply = try await connection.send(["SENTINEL", "get-master-addr-by-name", masterName])
        guard case .array(let address?) = reply, address.count == 2, let host = address[0].string,
            let port = address[1].string.flatMap({ Int($0) })
        else { throw .unexpectedReply("the sentinel at \(sentinel) knows no primary \(masterName)") }
        return ClusterSlotMap.Node(host: host, port: port)
    }

    /// Listens for `+switch-master` on the sentinels (one at a time, the next when it fails):
    /// a failover the sentinels announce is followed before any command meets the old primary.
    private func startListening() {
        let name = Array(masterName.utf8)
        let subscriber = RedisSubscriber(
            rotating: sentinels.map { sentinel in
                var settings = sentinelConfiguration
                (settings.host, settings.port) = (sentinel.host, sentinel.port)
                return settings
            }, channel: "+switch-master", maxBackoff: .milliseconds(500))
        state.withLock { state in
            guard state.listening == nil, !state.closed else { return }
            state.listening = Task { [weak self] in
                await subscriber.run(onMessage: { [weak self] payload in
                    // `name old-ip old-port new-ip new-port`
                    if payload.split(separator: UInt8(ascii: " ")).first.map(Array.init) == name { self?.forget() }
                })
            }
        }
    }
}
