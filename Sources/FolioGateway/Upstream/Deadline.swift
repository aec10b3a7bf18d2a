/// A time budget shared by every stage of one piece of work: the hops, head and body of an
/// upstream exchange, all the pages of a crawl, a drain's wait for its requests.
///
/// AsyncHTTPClient's own deadline stops once the head has arrived, and a slowly dripping body
/// would otherwise hold a request forever: each stage races its work against a sleep until
/// the same instant, and the loser is cancelled. The sleep is an event loop timer
/// (`TimerSleep`): a cancelled `Task.sleep` would hold memory until the deadline.
struct Deadline: Sendable {
    let instant: ContinuousClock.Instant

    init(after duration: Duration) {
        instant = .now + duration
    }

    /// Runs `work` until the deadline, then cancels it and throws `timeout`.
    ///
    /// An `UpstreamError` thrown once the instant has passed counts as the timeout: the library
    /// gave up because time ran out (e.g. a connection attempt cut off mid-retry), whatever it
    /// calls it.
    func run<T: Sendable>(
        orThrow timeout: @autoclosure @escaping @Sendable () -> any Error = UpstreamError.timeout(
            "no complete answer within the response timeout"),
        _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: Race<T>.self) { group in
            group.addTask { [instant] in
                do {
                    return .finished(try await work())
                } catch is UpstreamError where ContinuousClock.now >= instant {
                    return .timedOut
                }
            }
            group.addTask { [instant] in
                try await TimerSleep.until(instant)
                return .timedOut
            }
            defer { group.cancelAll() }
            switch try await group.next() {
            case .finished(let value): return value
            case .timedOut, nil: throw timeout()
            }
        }
    }

    /// Waits for `work` until the deadline; whether it finished in time. `work` is cancelled
    /// when time runs out, and must end promptly then.
    func wait(for work: @escaping @Sendable () async -> Void) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await work()
                return true
            }
            group.addTask { [instant] in
                try? await TimerSleep.until(instant)
                return false
            }
            defer { group.cancelAll() }
            return await group.next() ?? false
        }
    }

    private enum Race<T: Sendable>: Sendable {
        case finished(T)
        case timedOut
    }
}
