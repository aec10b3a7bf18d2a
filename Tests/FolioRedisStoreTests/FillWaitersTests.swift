import Testing

@testable import FolioRedisStore

/// Requests of one replica waiting for another replica's fill (`SharedSnapshotStore`).
@Suite("Fill waiters")
struct FillWaitersTests {
    @Test func aWakeReleasesEveryWaiterOfItsKeyAndNoOther() async throws {
        let waiters = FillWaiters()
        let started = ContinuousClock.now
        async let first: Void = waiters.wait(for: "k1", longest: .seconds(30))
        async let second: Void = waiters.wait(for: "k1", longest: .seconds(30))
        async let other: Void = waiters.wait(for: "k2", longest: .seconds(600))
        while waiters.count < 3 { try await Task.sleep(for: .milliseconds(5)) }
        waiters.wake("k1")
        _ = await (first, second)
        #expect(ContinuousClock.now - started < .seconds(30), "woken, not timed out")
        #expect(waiters.count == 1, "k2 still waits")
        waiters.wake("k2")
        await other
        #expect(waiters.count == 0)
        waiters.wake("k1")  // nobody waits: nothing to do
        // Nobody wakes k3: it stops waiting after its longest wait.
        await waiters.wait(for: "k3", longest: .milliseconds(50))
        #expect(waiters.count == 0)
    }

    /// A request that gives up (its task cancelled: the client went away) stops waiting at once,
    /// not after its longest wait.
    @Test(.timeLimit(.minutes(1))) func aCancelledWaiterStopsAtOnce() async throws {
        let waiters = FillWaiters()
        let started = ContinuousClock.now
        let waiting = Task { await waiters.wait(for: "k", longest: .seconds(600)) }
        while waiters.count < 1 { try await Task.sleep(for: .milliseconds(5)) }
        waiting.cancel()
        await waiting.value
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(waiters.count == 0)
    }
}
