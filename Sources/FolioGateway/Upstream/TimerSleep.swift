import NIOCore
import NIOPosix

/// Sleeps on an event loop timer that is gone the moment the sleep is cancelled.
///
/// A cancelled `Task.sleep` returns at once, but on Linux its dispatch timer and task stay
/// allocated until the original deadline passes (about 600 bytes each). Every upstream
/// exchange races its work against a sleep until its deadline, so under steady traffic
/// `upstreamTimeout` seconds' worth of dead timers piled up: tens of MiB of resident memory
/// beyond `cache.maxBytes` (issue 12, BENCHMARKS.md "Key churn"). An event loop timer is
/// removed from its loop's queue when cancelled, so nothing outlives the race.
enum TimerSleep {
    /// Returns at `instant`; throws `CancellationError` when the task is cancelled first.
    static func until(
        _ instant: ContinuousClock.Instant, on loop: any EventLoop = MultiThreadedEventLoopGroup.singleton.next()
    ) async throws {
        let remaining = instant - .now
        guard remaining > .zero else { return try Task.checkCancellation() }
        let timer = loop.scheduleTask(in: TimeAmount(remaining)) {}
        do {
            try await withTaskCancellationHandler {
                try await timer.futureResult.get()
            } onCancel: {
                timer.cancel()
            }
        } catch EventLoopError.cancelled {
            throw CancellationError()
        }
    }

    /// Returns after `duration`; throws `CancellationError` when the task is cancelled first.
    static func `for`(_ duration: Duration) async throws {
        try await until(.now + duration)
    }
}
