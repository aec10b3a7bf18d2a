import Dispatch
import Synchronization

extension FillWorkers {
    /// Runs `iterations` calls of `work` (each with its index), in parallel where workers are
    /// free, and returns when all have returned: the fill workers' `concurrentPerform`, so the
    /// parallel part of a large order or a change feed runs at the workers' priority.
    ///
    /// The calling thread takes part: every call is offered to the workers, the caller runs
    /// each one no worker has started, then waits only for those a worker is running. It never
    /// waits for a call still queued, so it may be a fill worker itself: with every worker busy,
    /// the caller makes all the calls.
    ///
    /// Called from any other thread (a request task's, a test's), it makes every call itself:
    /// waiting there for a worker would hold a thread of higher priority on the workers' nice 10,
    /// which a busy machine starves (the gateway renders what builds indexes on a worker).
    public func performAll(iterations: Int, _ work: @escaping @Sendable (Int) -> Void) {
        guard iterations > 1, Self.isWorkerThread else {
            for index in 0..<iterations { work(index) }
            return
        }
        let claims = Claims(count: iterations)
        for index in 1..<iterations {
            execute {
                guard claims.claim(index) else { return }
                work(index)
                claims.running.leave()
            }
        }
        for index in 0..<iterations where claims.claim(index) {
            work(index)
            claims.running.leave()
        }
        claims.running.wait()
    }

    /// Which calls of a `performAll` someone has started, and a group that each started call is in
    /// until it returns.
    private final class Claims: Sendable {
        private let started: Mutex<[Bool]>
        let running = DispatchGroup()

        init(count: Int) {
            started = Mutex([Bool](repeating: false, count: count))
        }

        /// True for the one caller that takes call `index`; it is then in `running`. Entered under
        /// the lock, so a caller that finds every call taken also finds each of them in the group.
        func claim(_ index: Int) -> Bool {
            started.withLock { started in
                guard !started[index] else { return false }
                started[index] = true
                running.enter()
                return true
            }
        }
    }
}
