import Synchronization

/// A job started on the fill workers and awaited later, by a task that goes on with other work
/// meanwhile (the next chunk's download, the next chunk's scan). Awaiting suspends the task,
/// it never blocks a thread: on 2 cores a blocked thread is half of the pool that runs every
/// request.
public final class FillJob: Sendable {
    private let state = Mutex<State>(.running)

    private enum State {
        case running
        case awaited(CheckedContinuation<Result<Void, FolioError>, Never>)
        case done(Result<Void, FolioError>)
    }

    /// A job to be completed by whoever runs its work (`complete`).
    init() {}

    /// Starts `work` on `workers`; its error, if any, is thrown by `finished()`.
    public static func start(
        on workers: FillWorkers = .shared, _ work: @escaping @Sendable () throws(FolioError) -> Void
    ) -> FillJob {
        let job = FillJob()
        workers.execute {
            do throws(FolioError) {
                try work()
                job.complete(.success(()))
            } catch {
                job.complete(.failure(error))
            }
        }
        return job
    }

    /// Ends the job, resuming its awaiter if one is waiting. Called once.
    func complete(_ result: Result<Void, FolioError>) {
        let waiter = state.withLock { state -> CheckedContinuation<Result<Void, FolioError>, Never>? in
            defer { state = .done(result) }
            if case .awaited(let continuation) = state { return continuation }
            return nil
        }
        waiter?.resume(returning: result)
    }

    /// Whether the job is over (`finished()` would return at once).
    public var isFinished: Bool {
        state.withLock { state in
            if case .done = state { return true }
            return false
        }
    }

    /// Returns once the job is over, throwing its error; suspends (never blocks) until then.
    /// Awaited by one task at most.
    public func finished() async throws(FolioError) {
        let result = await withCheckedContinuation { continuation in
            let result = state.withLock { state -> Result<Void, FolioError>? in
                if case .done(let result) = state { return result }
                state = .awaited(continuation)
                return nil
            }
            if let result { continuation.resume(returning: result) }
        }
        try result.get()
    }
}
