import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Threads of their own, at a lower scheduling priority, for the CPU work of fills: scanning
/// each downloaded chunk into the index, hashing it into the snapshot token, faulting in the
/// store's fresh pages, trimming the finished store, building the route's order and search
/// columns.
///
/// A fill of a 100 MB list is a quarter of a second of one core's time. Run on the cooperative
/// pool (2 threads on 2 cores) it took a thread from every request that needed one, and cached
/// pages of other routes waited behind it (p99 of 10–115 ms at 5,000 requests/s beside refills,
/// BENCHMARKS.md "No stall beside a fill"). Here it runs on threads with nice 10, so whenever a
/// core is wanted by both, the kernel gives the event loops and request tasks about nine tenths
/// of it; on an idle machine a fill runs as fast as before. The task that waits for a job is
/// suspended, not blocked.
public final class FillWorkers: Sendable {
    /// Shared by every gateway of the process: one per core, at least two (a long job, such as a
    /// large list's order, must not hold up every other fill).
    public static let shared = FillWorkers(threads: max(2, ProcessInfo.processInfo.activeProcessorCount), nice: 10)

    private struct Queue {
        var jobs: [@Sendable () -> Void] = []
        var head = 0
    }

    private let queue = Mutex(Queue())
    private let ready = DispatchSemaphore(value: 0)

    public init(threads: Int, nice: Int32) {
        for index in 0..<threads {
            let thread = Thread { [self] in
                #if canImport(Glibc)
                    // Linux keeps the nice value per thread; `who` 0 is the calling thread.
                    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice)
                #endif
                ThreadName.setCurrent("folio-fill-\(index)")
                pthread_setspecific(Self.workerKey, UnsafeRawPointer(bitPattern: 1))
                while true {
                    ready.wait()
                    let job = queue.withLock { queue -> (@Sendable () -> Void) in
                        let job = queue.jobs[queue.head]
                        queue.head += 1
                        if queue.head == queue.jobs.count {
                            queue.jobs.removeAll(keepingCapacity: true)
                            queue.head = 0
                        }
                        return job
                    }
                    job()
                }
            }
            thread.start()
        }
    }

    /// Set on every worker thread of every instance (`isWorkerThread`).
    private static let workerKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Whether the calling thread is a fill worker (of any instance).
    public static var isWorkerThread: Bool { pthread_getspecific(workerKey) != nil }

    /// Runs `work` on a worker thread; the calling task is suspended until it returns.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            execute { continuation.resume(with: Result { try work() }) }
        }
    }

    /// `run` for work that cannot fail.
    public func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            execute { continuation.resume(returning: work()) }
        }
    }

    /// Runs `job` on a worker thread, in the order jobs were given (two may run at once).
    public func execute(_ job: @escaping @Sendable () -> Void) {
        queue.withLock { $0.jobs.append(job) }
        ready.signal()
    }
}
