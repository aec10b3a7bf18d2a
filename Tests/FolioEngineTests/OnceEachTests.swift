import Dispatch
import Foundation
import Synchronization
import Testing

@testable import FolioEngine

/// `OnceEach`: callers asking for one key at once get one build between them; other keys build
/// beside it.
@Suite struct OnceEachTests {
    @Test func callersAtOnceShareOneBuildPerKey() {
        let once = OnceEach<Int>()
        let kept = Mutex<[Int: Int]>([:])
        let builds = Mutex<[Int: Int]>([:])
        let results = Mutex<[Int]>([])
        // Threads of their own: all 16 callers are under way at once, whatever the core count.
        let done = DispatchGroup()
        for index in 0..<16 {
            done.enter()
            Thread {
                defer { done.leave() }
                let key = index % 2
                let value = once.value(key, cached: { kept.withLock { $0[key] } }) {
                    builds.withLock { $0[key, default: 0] += 1 }
                    // Long enough that the other callers arrive while it is under way.
                    Thread.sleep(forTimeInterval: 0.05)
                    kept.withLock { $0[key] = key + 100 }
                    return key + 100
                }
                results.withLock { $0.append(value) }
            }.start()
        }
        done.wait()
        #expect(builds.withLock { $0 } == [0: 1, 1: 1])
        #expect(results.withLock { $0.sorted() } == Array(repeating: 100, count: 8) + Array(repeating: 101, count: 8))
    }

    /// A build that keeps nothing (the value was not cacheable) leaves the next caller to build.
    @Test func aBuildThatKeepsNothingIsDoneAgain() {
        let once = OnceEach<String>()
        let builds = Mutex(0)
        for _ in 0..<3 {
            let value: Int = once.value("k", cached: { nil }) {
                builds.withLock { $0 += 1 }
                return 7
            }
            #expect(value == 7)
        }
        #expect(builds.withLock { $0 } == 3)
    }
}
