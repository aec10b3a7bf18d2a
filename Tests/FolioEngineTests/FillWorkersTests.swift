import Foundation
import Glibc
import Synchronization
import Testing

@testable import FolioEngine

/// The fill's CPU work runs on threads of its own, below the priority of requests.
@Suite("Fill workers")
struct FillWorkersTests {
    struct Failure: Error, Equatable {}

    @Test func jobsRunOnLowerPriorityThreadsOfTheirOwn() async throws {
        let workers = FillWorkers(threads: 2, nice: 7)
        let (nice, name) = await workers.run { () -> (Int32, String) in
            // The name the kernel shows (what `top -H` and `perf` print).
            let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            return (getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0), name)
        }
        #expect(nice == 7)
        #expect(name.hasPrefix("folio-fill-"))
        // The caller's own thread keeps its priority.
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == 0)
    }

    @Test func resultsAndErrorsReachEachCaller() async throws {
        let workers = FillWorkers(threads: 2, nice: 0)
        let sums = try await withThrowingTaskGroup(of: Int.self) { group in
            for job in 0..<200 {
                group.addTask { await workers.run { (0...job).reduce(0, +) } }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(sums.sorted() == (0..<200).map { (0...$0).reduce(0, +) }.sorted())
        #expect(await workers.run { 6 * 7 } == 42)
        await #expect(throws: Failure()) { try await workers.run { () throws -> Int in throw Failure() } }
    }

    /// `performAll` makes every call exactly once and returns after the last, in parallel on
    /// idle workers; called from a worker while every other worker is busy, the caller makes
    /// the calls itself instead of waiting for a queued one (no deadlock).
    @Test(.timeLimit(.minutes(1)), arguments: [1, 2])
    func performAllMakesEveryCallOnceEvenFromABusyWorker(threads: Int) async throws {
        let workers = FillWorkers(threads: threads, nice: 0)
        let blocker = DispatchSemaphore(value: 0)
        // Every worker but the one that calls `performAll` is held busy.
        for _ in 1..<threads { workers.execute { blocker.wait() } }
        let counts = await workers.run { () -> [Int] in
            let counts = Counts(64)
            workers.performAll(iterations: 64) { counts.add($0) }
            return counts.values
        }
        for _ in 1..<threads { blocker.signal() }
        #expect(counts == Array(repeating: 1, count: 64))
        let idle = Counts(1_000)
        await workers.run { workers.performAll(iterations: 1_000) { idle.add($0) } }
        #expect(idle.values == Array(repeating: 1, count: 1_000))
        // Off the workers, the caller makes every call on its own thread.
        #expect(!FillWorkers.isWorkerThread)
        let threads = Seen()
        workers.performAll(iterations: 100) { _ in threads.note(UInt(pthread_self())) }
        #expect(threads.values == [UInt(pthread_self())])
    }

    final class Seen: Sendable {
        private let state = Mutex<Set<UInt>>([])
        func note(_ value: UInt) { state.withLock { _ = $0.insert(value) } }
        var values: Set<UInt> { state.withLock { $0 } }
    }

    final class Counts: Sendable {
        private let state: Mutex<[Int]>
        init(_ count: Int) { state = Mutex(Array(repeating: 0, count: count)) }
        func add(_ index: Int) { state.withLock { $0[index] += 1 } }
        var values: [Int] { state.withLock { $0 } }
    }
}

/// A job awaited later: its result reaches the awaiter whether it ends before or after the
/// awaiter arrives.
@Suite("Fill jobs")
struct FillJobTests {
    @Test func anAwaiterThatArrivesFirstIsResumed() async throws {
        let workers = FillWorkers(threads: 1, nice: 0)
        let gate = DispatchSemaphore(value: 0)
        let job = FillJob.start(on: workers) { gate.wait() }
        async let awaited: Void = job.finished()
        try await Task.sleep(for: .milliseconds(50))
        gate.signal()
        try await awaited
        // The worker is free again: a second job runs.
        #expect(await workers.run { 42 } == 42)
    }

    @Test func anAwaiterThatArrivesLateGetsTheResult() async throws {
        let workers = FillWorkers(threads: 1, nice: 0)
        let error = FolioError.badUpstreamBody("invalid JSON at byte 3")
        let failing = FillJob.start(on: workers) { () throws(FolioError) in throw error }
        let succeeding = FillJob.start(on: workers) {}
        // Both have run once a later job has (one thread runs jobs in order).
        _ = await workers.run { 0 }
        await #expect(throws: error) { try await failing.finished() }
        try await succeeding.finished()
    }
}
