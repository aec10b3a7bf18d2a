import Foundation
import Glibc
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
