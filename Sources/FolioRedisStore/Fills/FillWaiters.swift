import Synchronization

/// Requests of this replica waiting for another replica's fill, by cache-key hash: woken by
/// that replica's event, or after a short wait to look again (an event may be missed while the
/// subscription reconnects, so waiting never depends on it alone).
final class FillWaiters: Sendable {
    private let waiting = Mutex<[String: [Int: CheckedContinuation<Void, Never>]]>([:])
    private let nextID = Atomic<Int>(0)

    /// Returns when `key` is woken, or after `longest`.
    func wait(for key: String, longest: Duration) async {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            waiting.withLock { $0[key, default: [:]][id] = continuation }
            Task {
                try? await Task.sleep(for: longest)
                self.resume(key, id: id)
            }
        }
    }

    /// Wakes every request waiting for `key`.
    func wake(_ key: String) {
        let continuations = waiting.withLock { $0.removeValue(forKey: key) }
        for continuation in continuations?.values ?? [:].values { continuation.resume() }
    }

    private func resume(_ key: String, id: Int) {
        let continuation = waiting.withLock { waiting -> CheckedContinuation<Void, Never>? in
            let found = waiting[key]?.removeValue(forKey: id)
            if waiting[key]?.isEmpty == true { waiting[key] = nil }
            return found
        }
        continuation?.resume()
    }

    /// Requests waiting now (tests).
    var count: Int { waiting.withLock { $0.values.reduce(0) { $0 + $1.count } } }
}
