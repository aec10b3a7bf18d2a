import Synchronization

/// One shared connection to Redis that comes back by itself.
///
/// A command on a broken or closed connection fails (callers fall back: the store serves from
/// its local layer); the next command reconnects. Failed attempts back off exponentially
/// (`initialBackoff` doubling up to `maxBackoff`), and while backing off commands fail at once
/// instead of waiting on a dead server. Concurrent commands share one connection attempt.
public final class RedisClient: Sendable {
    private struct State {
        var connection: RedisConnection?
        var connecting: Task<Result<RedisConnection, RedisError>, Never>?
        var failures = 0
        var nextAttempt: ContinuousClock.Instant
    }

    private enum Step {
        case ready(RedisConnection)
        case join(Task<Result<RedisConnection, RedisError>, Never>)
        case backingOff(Duration)
    }

    public let configuration: RedisConfiguration
    public let initialBackoff: Duration
    public let maxBackoff: Duration
    private let state: Mutex<State>

    public init(
        _ configuration: RedisConfiguration, initialBackoff: Duration = .milliseconds(100),
        maxBackoff: Duration = .seconds(5)
    ) {
        self.configuration = configuration
        self.initialBackoff = initialBackoff
        self.maxBackoff = maxBackoff
        self.state = Mutex(State(nextAttempt: .now))
    }

    /// Sends one command, connecting first when needed. A connection, timeout or protocol
    /// error drops the connection; a server error (`-ERR`) keeps it.
    /// Its errors name this server (`RedisError.node`).
    @discardableResult
    public func send(_ command: [[UInt8]]) async throws(RedisError) -> RESPValue {
        let connection: RedisConnection
        do {
            connection = try await self.connection()
        } catch {
            throw error.from(address)
        }
        do {
            return try await connection.send(command)
        } catch {
            if !error.isServerError { drop(connection) }
            throw error.from(address)
        }
    }

    /// Sends `commands` in one round trip (see `RedisConnection.pipeline`).
    public func pipeline(_ commands: [[[UInt8]]]) async throws(RedisError) -> [RESPValue] {
        let connection: RedisConnection
        do {
            connection = try await self.connection()
        } catch {
            throw error.from(address)
        }
        do {
            return try await connection.pipeline(commands)
        } catch {
            drop(connection)
            throw error.from(address)
        }
    }

    /// `host:port`, as errors name this server.
    public var address: String { "\(configuration.host):\(configuration.port)" }

    @discardableResult
    public func send(_ command: [String]) async throws(RedisError) -> RESPValue {
        try await send(command.map { Array($0.utf8) })
    }

    /// Whether the last attempt left a usable connection (for readiness of the store, logs).
    public var isConnected: Bool {
        state.withLock { $0.connection?.isOpen ?? false }
    }

    public func close() async {
        let connection = state.withLock { state in
            defer { state.connection = nil }
            return state.connection
        }
        await connection?.close()
    }

    private func connection() async throws(RedisError) -> RedisConnection {
        let configuration = self.configuration
        let step: Step = state.withLock { state in
            if let connection = state.connection, connection.isOpen { return .ready(connection) }
            state.connection = nil
            if let task = state.connecting { return .join(task) }
            let now = ContinuousClock.now
            if now < state.nextAttempt { return .backingOff(state.nextAttempt - now) }
            let task = Task { () -> Result<RedisConnection, RedisError> in
                do throws(RedisError) {
                    return .success(try await RedisConnection.connect(configuration))
                } catch {
                    return .failure(error)
                }
            }
            state.connecting = task
            return .join(task)
        }
        switch step {
        case .ready(let connection):
            return connection
        case .backingOff(let left):
            throw .connection("unavailable, next connection attempt in \(left)")
        case .join(let task):
            let result = await task.value
            state.withLock { state in
                guard state.connecting == task else { return }
                state.connecting = nil
                switch result {
                case .success(let connection):
                    state.connection = connection
                    state.failures = 0
                case .failure:
                    state.failures += 1
                    state.nextAttempt = .now + backoff(after: state.failures)
                }
            }
            return try result.get()
        }
    }

    private func drop(_ connection: RedisConnection) {
        let dropped = state.withLock { state in
            guard state.connection === connection else { return false }
            state.connection = nil
            return true
        }
        if dropped { Task { await connection.close() } }
    }

    /// `initialBackoff` after the first failed attempt, doubling, at most `maxBackoff`.
    func backoff(after failures: Int) -> Duration {
        Self.backoff(after: failures, initial: initialBackoff, max: maxBackoff)
    }

    /// `initial` after the first failure, doubling with each further one, at most `max`.
    static func backoff(after failures: Int, initial: Duration, max maximum: Duration) -> Duration {
        var delay = initial
        for _ in 1..<max(1, failures) where delay < maximum { delay *= 2 }
        return min(delay, maximum)
    }
}
