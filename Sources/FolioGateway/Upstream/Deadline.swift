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

    /// Runs `work` until the deadline, then cancels it and throws `timeout`; or until `abort`
    /// returns an error, then cancels it and throws that error.
    ///
    /// An `UpstreamError` thrown once the instant has passed counts as the timeout: the library
    /// gave up because time ran out (e.g. a connection attempt cut off mid-retry), whatever it
    /// calls it.
    func run<T: Sendable>(
        orThrow timeout: @autoclosure @escaping @Sendable () -> any Error = UpstreamError.timeout(
            "no complete answer within the response timeout"),
        abortedBy abort: (@Sendable () async -> (any Error)?)? = nil,
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
            if let abort {
                group.addTask {
                    guard let error = await abort() else { return .gaveUp }
                    return .aborted(error)
                }
            }
            defer { group.cancelAll() }
            while let outcome = try await group.next() {
                switch outcome {
                case .finished(let value): return value
                case .timedOut: throw timeout()
                case .aborted(let error): throw error
                case .gaveUp: continue
                }
            }
            throw timeout()
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
        /// `abort` found an error.
        case aborted(any Error)
        /// `abort` returned without one.
        case gaveUp
    }
}
