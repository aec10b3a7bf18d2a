import Synchronization
import Testing

@testable import FolioGateway

@Suite("MemoryReturner trims at most once per scheduled interval")
struct MemoryReturnerTests {
    /// Holds what the returner scheduled, to run by hand.
    final class Scheduler: Sendable {
        let pending = Mutex<[@Sendable () -> Void]>([])
        let trims = Atomic<Int>(0)

        func runAll() {
            let work = pending.withLock { pending in
                defer { pending = [] }
                return pending
            }
            for item in work { item() }
        }
    }

    private func returner(_ scheduler: Scheduler) -> MemoryReturner {
        MemoryReturner(
            schedule: { work in scheduler.pending.withLock { $0.append(work) } },
            trim: { scheduler.trims.add(1, ordering: .relaxed) })
    }

    @Test func evictionsBeforeTheTrimShareIt() {
        let scheduler = Scheduler()
        let returner = returner(scheduler)
        returner.freed()
        returner.freed()
        returner.freed()
        #expect(scheduler.pending.withLock { $0.count } == 1)
        #expect(scheduler.trims.load(ordering: .relaxed) == 0)
        scheduler.runAll()
        #expect(scheduler.trims.load(ordering: .relaxed) == 1)
    }

    @Test func anEvictionAfterATrimSchedulesTheNext() {
        let scheduler = Scheduler()
        let returner = returner(scheduler)
        returner.freed()
        scheduler.runAll()
        returner.freed()
        #expect(scheduler.pending.withLock { $0.count } == 1)
        scheduler.runAll()
        #expect(scheduler.trims.load(ordering: .relaxed) == 2)
        scheduler.runAll()
        #expect(scheduler.trims.load(ordering: .relaxed) == 2)
    }
}

@Suite("TimerSleep")
struct TimerSleepTests {
    @Test func returnsNoEarlierThanTheInstant() async throws {
        let instant = ContinuousClock.now + .milliseconds(30)
        try await TimerSleep.until(instant)
        #expect(ContinuousClock.now >= instant)
    }

    @Test func aPastInstantReturnsAtOnce() async throws {
        try await TimerSleep.until(.now - .seconds(1))
    }

    @Test func cancellingEndsTheSleepWithCancellationError() async {
        let started = ContinuousClock.now
        let sleeper = Task { try await TimerSleep.for(.seconds(600)) }
        sleeper.cancel()
        let result = await sleeper.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(ContinuousClock.now - started < .seconds(600))
    }

    @Test func aCancelledTaskDoesNotSleep() async {
        let result = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await TimerSleep.for(.seconds(600))
        }.result
        #expect(throws: CancellationError.self) { try result.get() }
    }
}
