/// Where the shared store sends its commands: one server (`RedisClient`), or a cluster
/// (`RedisClusterClient`), which routes each command to the node of its key's hash slot.
public protocol RedisCommands: Sendable {
    /// Sends one command; an error answer throws a server error.
    @discardableResult
    func send(_ command: [[UInt8]]) async throws(RedisError) -> RESPValue
    /// Sends `commands` in one round trip per node; error answers come back in their place.
    func pipeline(_ commands: [[[UInt8]]]) async throws(RedisError) -> [RESPValue]
    /// Publishes `payload` on `channel` (`PUBLISH`; sharded `SPUBLISH` on a cluster).
    func publish(_ channel: String, _ payload: [UInt8]) async throws(RedisError)
    func close() async
}

extension RedisCommands {
    @discardableResult
    public func send(_ command: [String]) async throws(RedisError) -> RESPValue {
        try await send(command.map { Array($0.utf8) })
    }
}

extension RedisClient: RedisCommands {
    public func publish(_ channel: String, _ payload: [UInt8]) async throws(RedisError) {
        try await send([Array("PUBLISH".utf8), Array(channel.utf8), payload])
    }
}
