import NIOCore
import NIOPosix
import Synchronization

/// Requests of this replica waiting for another replica's fill, by cache-key hash: woken by
/// that replica's event, or after a short wait to look again (an event may be missed while the
/// subscription reconnects, so waiting never depends on it alone).
///
/// The short wait is an event loop timer, cancelled when the waiter is woken or its task is
/// cancelled: a sleeping task per wait would stay allocated until its deadline however early
/// the wait ended (the gateway's `TimerSleep` says why that matters under load).
final class FillWaiters: Sendable {
    private struct Waiter {
        let continuation: CheckedContinuation<Void, Never>
        var timer: Scheduled<Void>?
    }

    private let waiting = Mutex<[String: [Int: Waiter]]>([:])
    private let nextID = Atomic<Int>(0)
    private let loop: any EventLoop

    init(loop: any EventLoop = MultiThreadedEventLoopGroup.singleton.next()) {
        self.loop = loop
    }

    /// Returns when `key` is woken, after `longest`, or when the task is cancelled.
    func wait(for key: String, longest: Duration) async {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                waiting.withLock { $0[key, default: [:]][id] = Waiter(continuation: continuation) }
                let timer = loop.scheduleTask(in: TimeAmount(longest)) { self.resume(key, id: id) }
                let armed = waiting.withLock { waiting in
                    guard waiting[key]?[id] != nil else { return false }
                    waiting[key]?[id]?.timer = timer
                    return true
                }
                // Woken (or cancelled) before the timer was armed: it has nothing left to end.
                if !armed { timer.cancel() }
                if Task.isCancelled { resume(key, id: id) }
            }
        } onCancel: {
            resume(key, id: id)
        }
    }

    /// Wakes every request waiting for `key`.
    func wake(_ key: String) {
        let waiters = waiting.withLock { $0.removeValue(forKey: key) } ?? [:]
        for waiter in waiters.values {
            waiter.timer?.cancel()
            waiter.continuation.resume()
        }
    }

    private func resume(_ key: String, id: Int) {
        let waiter = waiting.withLock { waiting -> Waiter? in
            let found = waiting[key]?.removeValue(forKey: id)
            if waiting[key]?.isEmpty == true { waiting[key] = nil }
            return found
        }
        waiter?.timer?.cancel()
        waiter?.continuation.resume()
    }

    /// Requests waiting now (tests).
    var count: Int { waiting.withLock { $0.values.reduce(0) { $0 + $1.count } } }
}
