/// One exchange's time budget, shared by every stage of it (hops, head, body).
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

    func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: Race<T>.self) { group in
            group.addTask { [instant] in
                do {
                    return .finished(try await work())
                } catch is UpstreamError where ContinuousClock.now >= instant {
                    // The library gave up because time ran out (e.g. a connection attempt cut
                    // off mid-retry): that is the timeout, whatever it calls it.
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
            case .timedOut, nil: throw UpstreamError.timeout("no complete answer within the response timeout")
            }
        }
    }

    private enum Race<T: Sendable>: Sendable {
        case finished(T)
        case timedOut
    }
}
