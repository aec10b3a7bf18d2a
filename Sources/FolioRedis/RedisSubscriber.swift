/// Listens to one pub/sub channel on a connection of its own, and comes back by itself.
///
/// A subscribed connection can send nothing but (un)subscribe commands, so it is never the
/// shared command connection. `run` connects, subscribes and hands every message to `onMessage`
/// until it is cancelled; when the connection drops it reconnects with the client's backoff.
/// Messages published while it was disconnected are lost (Redis pub/sub keeps nothing):
/// `onState` tells the owner when it is back, so it can catch up another way.
///
/// On a cluster (`sharded`) it subscribes with `SSUBSCRIBE` on the primary that owns the
/// channel's slot; when the slot moves (the node unsubscribes it, or the node goes away), it
/// subscribes again where the slot map says the slot lives now.
public struct RedisSubscriber: Sendable {
    public let channel: String
    public let initialBackoff: Duration
    public let maxBackoff: Duration
    /// Where to subscribe; `failures` counts the attempts that failed in a row.
    let locate: @Sendable (_ failures: Int) async throws(RedisError) -> RedisConfiguration
    let sharded: Bool

    public init(
        _ configuration: RedisConfiguration, channel: String, initialBackoff: Duration = .milliseconds(100),
        maxBackoff: Duration = .seconds(5)
    ) {
        self.channel = channel
        self.initialBackoff = initialBackoff
        self.maxBackoff = maxBackoff
        self.locate = { _ in configuration }
        self.sharded = false
    }

    /// The subscription to `channel` on the first of `servers` that answers, on the next one
    /// after each failure (the sentinels of a primary).
    public init(
        rotating servers: [RedisConfiguration], channel: String, initialBackoff: Duration = .milliseconds(100),
        maxBackoff: Duration = .seconds(5)
    ) {
        self.channel = channel
        self.initialBackoff = initialBackoff
        self.maxBackoff = maxBackoff
        self.sharded = false
        self.locate = { failures in servers[failures % max(1, servers.count)] }
    }

    /// The subscription to `channel` on whatever server `locate` names (asked again after each
    /// failure: a Sentinel-managed primary after a failover).
    public init(
        channel: String, maxBackoff: Duration = .seconds(5),
        locate: @escaping @Sendable (_ failures: Int) async throws(RedisError) -> RedisConfiguration
    ) {
        self.channel = channel
        self.initialBackoff = .milliseconds(100)
        self.maxBackoff = maxBackoff
        self.sharded = false
        self.locate = locate
    }

    /// The sharded subscription to `channel` on `cluster`.
    public init(
        cluster: RedisClusterClient, channel: String, initialBackoff: Duration = .milliseconds(100),
        maxBackoff: Duration = .seconds(5)
    ) {
        self.channel = channel
        self.initialBackoff = initialBackoff
        self.maxBackoff = maxBackoff
        self.sharded = true
        self.locate = { failures throws(RedisError) in
            if failures > 0 { try await cluster.refresh() }
            let node = try await cluster.node(for: Array(channel.utf8))
            var configuration = cluster.configuration
            configuration.host = node.host
            configuration.port = node.port
            return configuration
        }
    }

    /// Runs until the task is cancelled.
    ///
    /// - Parameters:
    ///   - onMessage: called on the connection's event loop with each message's payload.
    ///   - onState: called with success once subscribed, with the error when a connection
    ///     attempt or the connection failed.
    public func run(
        onMessage: @escaping @Sendable ([UInt8]) -> Void,
        onState: @escaping @Sendable (Result<Void, RedisError>) async -> Void = { _ in }
    ) async {
        var failures = 0
        let channel = Array(self.channel.utf8)
        let moved = Array("sunsubscribe".utf8)
        while !Task.isCancelled {
            // The server subscribed to: its failures name it (`RedisError.node`).
            var address: String?
            do throws(RedisError) {
                let configuration = try await locate(failures)
                address = "\(configuration.host):\(configuration.port)"
                let unsubscribed = AsyncStream<Void>.makeStream()
                let connection = try await RedisConnection.connect(configuration) { value in
                    guard case .array(let elements?) = value, elements.count == 3, elements[1].bytes == channel
                    else { return }
                    // The node no longer owns the channel's slot: subscribe again where it does.
                    if elements[0].bytes == moved { unsubscribed.continuation.yield() }
                    guard let payload = elements[2].bytes else { return }
                    onMessage(payload)
                }
                do throws(RedisError) {
                    try await connection.send([Array((sharded ? "SSUBSCRIBE" : "SUBSCRIBE").utf8), channel])
                } catch {
                    await connection.close()
                    throw error
                }
                failures = 0
                await onState(.success(()))
                let watch = Task {
                    for await _ in unsubscribed.stream {
                        await connection.close()
                        return
                    }
                }
                await withTaskCancellationHandler {
                    await connection.closed()
                } onCancel: {
                    Task { await connection.close() }
                }
                watch.cancel()
                unsubscribed.continuation.finish()
                if !Task.isCancelled {
                    let closed = RedisError.connection("the subscription's connection closed")
                    await onState(.failure(address.map(closed.from) ?? closed))
                }
                // A moved slot: look it up again before the next attempt.
                failures = 1
            } catch {
                failures += 1
                await onState(.failure(address.map(error.from) ?? error))
            }
            guard !Task.isCancelled else { return }
            try? await Task.sleep(
                for: RedisClient.backoff(after: failures, initial: initialBackoff, max: maxBackoff))
        }
    }
}
