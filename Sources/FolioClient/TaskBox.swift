import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Holds a session task for the cancellation handler, which may run before the task exists
/// (then the task is cancelled as soon as it is started).
final class TaskBox: Sendable {
    private enum State {
        case waiting
        case running(URLSessionTask)
        case cancelled
    }

    // URLSessionTask is thread-safe but not marked Sendable on every platform.
    private let state = Mutex<State>(.waiting)

    func start(_ task: URLSessionTask) {
        let cancelled = state.withLock { state -> Bool in
            if case .cancelled = state { return true }
            state = .running(task)
            return false
        }
        if cancelled { task.cancel() }
        task.resume()
    }

    func cancel() {
        let task = state.withLock { state -> URLSessionTask? in
            defer { state = .cancelled }
            if case .running(let task) = state { return task }
            return nil
        }
        task?.cancel()
    }
}
