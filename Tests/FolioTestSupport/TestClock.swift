import Synchronization

/// A clock the tests move by hand, injected as the gateway's `now`, so freshness tests never
/// sleep.
public final class TestClock: Sendable {
    private let current = Mutex(ContinuousClock.now)

    public init() {}

    public var now: @Sendable () -> ContinuousClock.Instant { { self.current.withLock { $0 } } }

    public func advance(_ duration: Duration) {
        current.withLock { $0 += duration }
    }
}

/// Polls `condition` until it holds or `timeout` passes (for background work such as a
/// stale-while-revalidate refresh); returns whether it held.
public func eventually(timeout: Duration = .seconds(5), _ condition: @Sendable () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// `eventually` for a condition that asks a server; its errors are the test's.
public func eventually(
    timeout: Duration = .seconds(5), asking condition: () async throws -> Bool
) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return try await condition()
}
