import Synchronization

/// Mutual exclusion for async code: `lock()` suspends the task (it never blocks a thread) while
/// another holds the lock, and turns are given in the order they were asked for.
///
/// For short turns that may await something quick (a fill worker's job); not cancellable.
final class AsyncLock: Sendable {
    private struct State {
        var held = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    init() {}

    func lock() async {
        let taken = state.withLock { state in
            if state.held { return false }
            state.held = true
            return true
        }
        if taken { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let taken = state.withLock { state in
                if state.held {
                    state.waiters.append(continuation)
                    return false
                }
                state.held = true
                return true
            }
            if taken { continuation.resume() }
        }
    }

    /// Hands the lock to the longest waiter, if any.
    func unlock() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            precondition(state.held, "AsyncLock: unlock() without lock()")
            if state.waiters.isEmpty {
                state.held = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
