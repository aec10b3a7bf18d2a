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
