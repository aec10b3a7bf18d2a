import FolioEngine
import NIOCore
import Synchronization

/// One watched cache key (docs/API.md, "Watching a list"): its newest snapshot as the
/// watchers know it, its watchers, the events computed from one token for one view (shared by
/// every watcher at that token with that view), and the task that keeps it fresh.
final class WatchedKey: Sendable {
    let key: CacheKey
    let route: String
    /// How the key is filled when it goes stale: the plan of the request that opened it.
    let plan: FillPlan
    /// The key's name on the shared store's events channel (nil: memory store).
    let eventKey: String?

    private struct State {
        var latest: Snapshot
        var watchers: [Int: Watcher] = [:]
        /// Event bytes to `latest`, by the token they start from and the view (nil: none can
        /// be given, the stream ends).
        var events: [String: Task<ByteBuffer?, Never>] = [:]
        var refresher: Task<Void, Never>?
    }

    private let state: Mutex<State>

    init(key: CacheKey, route: String, plan: FillPlan, eventKey: String?, latest: Snapshot) {
        self.key = key
        self.route = route
        self.plan = plan
        self.eventKey = eventKey
        state = Mutex(State(latest: latest))
    }

    var latest: Snapshot { state.withLock { $0.latest } }

    var watchers: [Watcher] { state.withLock { Array($0.watchers.values) } }

    var isEmpty: Bool { state.withLock { $0.watchers.isEmpty } }

    /// Adds `watcher`, which is at `snapshot`; true when the key has a newer one already (the
    /// caller wakes it).
    func add(_ watcher: Watcher, at snapshot: Snapshot) -> Bool {
        state.withLock { state in
            state.watchers[watcher.id] = watcher
            return state.latest.token != snapshot.token
        }
    }

    /// Removes `watcher`; true when it was the last one.
    func remove(_ watcher: Watcher) -> Bool {
        state.withLock { state in
            state.watchers[watcher.id] = nil
            return state.watchers.isEmpty
        }
    }

    /// Makes `snapshot` the newest and wakes every watcher; false (nothing done) when it is the
    /// newest already.
    @discardableResult
    func advance(to snapshot: Snapshot) -> Bool {
        let woken: [Watcher]? = state.withLock { state in
            guard state.latest.token != snapshot.token else {
                // A 304 or a refill of the same content: the same list, fresher.
                if snapshot.freshUntil > state.latest.freshUntil { state.latest = snapshot }
                return nil
            }
            state.latest = snapshot
            state.events = [:]
            return Array(state.watchers.values)
        }
        for watcher in woken ?? [] { watcher.signal(.changed) }
        return woken != nil
    }

    /// The event from `from` to the newest snapshot for `view`, computed once for every
    /// watcher at that token with that view, by `make`.
    func event(
        from: Snapshot, view: WatchView, make: @escaping @Sendable (Snapshot) async -> ByteBuffer?
    ) async -> (ByteBuffer?, Snapshot) {
        let (task, latest) = state.withLock { state in
            let name = from.token + "\u{0}" + view.key
            if let task = state.events[name] { return (task, state.latest) }
            let latest = state.latest
            let task = Task { await make(latest) }
            state.events[name] = task
            return (task, latest)
        }
        return (await task.value, latest)
    }

    /// Replaces the refresher (nil: stops it).
    func setRefresher(_ task: Task<Void, Never>?) {
        let old = state.withLock { state in
            let old = state.refresher
            state.refresher = task
            return old
        }
        old?.cancel()
    }
}
