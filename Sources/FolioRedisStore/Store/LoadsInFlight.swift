import FolioEngine
import Synchronization

/// Loads from Redis in flight, by name (a cache key's or a token's, with what makes a later
/// request's load a different one): requests asking at the same time share one.
final class LoadsInFlight<Value: Sendable>: Sendable {
    private let loads = Mutex<[String: Task<Value, Never>]>([:])

    /// Runs `load` once for `name` however many requests ask at the same time.
    func run(_ name: String, _ load: @escaping @Sendable () async -> Value) async -> Value {
        let (task, started) = loads.withLock { loads in
            if let task = loads[name] { return (task, false) }
            let task = Task { await load() }
            loads[name] = task
            return (task, true)
        }
        let value = await task.value
        if started { loads.withLock { _ = $0.removeValue(forKey: name) } }
        return value
    }

    /// Loads running now (tests wait for one to start).
    var count: Int { loads.withLock { $0.count } }
}
