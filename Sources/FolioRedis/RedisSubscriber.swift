/// Listens to one pub/sub channel on a connection of its own, and comes back by itself.
///
/// A subscribed connection can send nothing but (un)subscribe commands, so it is never the
/// shared command connection. `run` connects, subscribes and hands every message to `onMessage`
/// until it is cancelled; when the connection drops it reconnects with the client's backoff.
/// Messages published while it was disconnected are lost (Redis pub/sub keeps nothing):
/// `onState` tells the owner when it is back, so it can catch up another way.
public struct RedisSubscriber: Sendable {
    public let configuration: RedisConfiguration
    public let channel: String
    public let initialBackoff: Duration
    public let maxBackoff: Duration

    public init(
        _ configuration: RedisConfiguration, channel: String, initialBackoff: Duration = .milliseconds(100),
        maxBackoff: Duration = .seconds(5)
    ) {
        self.configuration = configuration
        self.channel = channel
        self.initialBackoff = initialBackoff
        self.maxBackoff = maxBackoff
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
        while !Task.isCancelled {
            do throws(RedisError) {
                let connection = try await RedisConnection.connect(configuration) { value in
                    guard case .array(let elements?) = value, elements.count == 3, elements[1].bytes == channel,
                        let payload = elements[2].bytes
                    else { return }
                    onMessage(payload)
                }
                do throws(RedisError) {
                    try await connection.send([Array("SUBSCRIBE".utf8), channel])
                } catch {
                    await connection.close()
                    throw error
                }
                failures = 0
                await onState(.success(()))
                await withTaskCancellationHandler {
                    await connection.closed()
                } onCancel: {
                    Task { await connection.close() }
                }
                if !Task.isCancelled { await onState(.failure(.connection("the subscription's connection closed"))) }
            } catch {
                failures += 1
                await onState(.failure(error))
            }
            guard !Task.isCancelled else { return }
            try? await Task.sleep(
                for: RedisClient.backoff(after: failures, initial: initialBackoff, max: maxBackoff))
        }
    }
}
