import FolioEngine
import Synchronization

/// Every open event stream of this process (docs/API.md, "Watching a list"), by cache key: it
/// admits streams up to `server.watch.maxWatchers`, wakes a key's watchers when the key gets a
/// new snapshot (whoever made it: a watcher's refresh, a page request, another replica), keeps
/// watched keys fresh (`WatchRefresher`, one per key however many watch it), sends heartbeats,
/// and ends every stream on SIGTERM.
///
/// One per server, outliving reloads: a stream keeps going on the gateway a reload installs.
final class WatchHub: SnapshotEvents {
    let metrics: GatewayMetrics

    private struct State {
        var keys: [CacheKey: WatchedKey] = [:]
        /// Streams admitted (open, or about to open).
        var open = 0
        var nextID = 0
        /// Set by SIGTERM: no stream opens any more.
        var ended = false
        var ticker: Task<Void, Never>?
    }

    private let state = Mutex(State())
    /// The gateway serving now (a reload replaces it): refreshes use its routes and cache.
    private let current = Mutex<(@Sendable () -> Gateway?)?>(nil)

    init(metrics: GatewayMetrics) {
        self.metrics = metrics
    }

    /// Where the gateway serving now is found.
    func attach(_ gateway: @escaping @Sendable () -> Gateway?) {
        current.withLock { $0 = gateway }
    }

    var gateway: Gateway? { current.withLock { $0 }?() }

    /// Open streams now.
    var openStreams: Int { state.withLock { $0.open } }

    // MARK: Streams

    /// Counts one more stream, or throws `too-many-watchers` (503) when `limit` are open (or
    /// the server is draining). Undone by `release` if the stream does not open after all.
    func admit(limit: Int) throws(FolioError) {
        let admitted = state.withLock { state in
            guard !state.ended, state.open < limit else { return false }
            state.open += 1
            return true
        }
        guard admitted else { throw .tooManyWatchers(limit: limit) }
    }

    func release() {
        state.withLock { $0.open -= 1 }
    }

    /// Opens an admitted stream at `snapshot` of `key`: the key is watched from now on (and
    /// kept fresh) until its last stream closes.
    func open(
        key: CacheKey, route: String, plan: FillPlan, eventKey: String?, at snapshot: Snapshot, view: WatchView
    ) -> (Watcher, WatchedKey) {
        let (watcher, entry, isNew, behind) = state.withLock { state in
            state.nextID += 1
            let watcher = Watcher(id: state.nextID, route: route, view: view)
            let entry =
                state.keys[key]
                ?? WatchedKey(key: key, route: route, plan: plan, eventKey: eventKey, latest: snapshot)
            let isNew = state.keys[key] == nil
            state.keys[key] = entry
            // Under the hub's lock: a key whose last stream is closing is not dropped meanwhile.
            return (watcher, entry, isNew, entry.add(watcher, at: snapshot))
        }
        if behind { watcher.signal(.changed) }
        metrics.watchStream(route, opened: true)
        if isNew { entry.setRefresher(WatchRefresher.start(entry, hub: self, immediately: false)) }
        startTicker()
        if ended { watcher.end() }
        return (watcher, entry)
    }

    /// A stream ended (its client left, or the server ended it).
    func close(_ watcher: Watcher, of entry: WatchedKey) {
        _ = entry.remove(watcher)
        metrics.watchStream(watcher.route, opened: false)
        let unwatched = state.withLock { state in
            state.open -= 1
            guard state.keys[entry.key] === entry, entry.isEmpty else { return false }
            state.keys[entry.key] = nil
            return true
        }
        if unwatched { entry.setRefresher(nil) }
    }

    private var ended: Bool { state.withLock { $0.ended } }

    /// Ends every stream at once and opens no more (SIGTERM: clients reconnect elsewhere with
    /// `Last-Event-ID`).
    func endAll() {
        let (keys, ticker) = state.withLock { state in
            state.ended = true
            let ticker = state.ticker
            state.ticker = nil
            return (Array(state.keys.values), ticker)
        }
        ticker?.cancel()
        for entry in keys {
            entry.setRefresher(nil)
            for watcher in entry.watchers { watcher.end() }
        }
    }

    /// Ends the streams of routes a reload removed or changed (`kept`: the routes it left as
    /// they were, whose streams go on).
    func reloaded(keeping kept: [String]) {
        let keys = state.withLock { Array($0.keys.values) }
        for entry in keys where !kept.contains(entry.route) {
            for watcher in entry.watchers { watcher.end() }
        }
    }

    // MARK: New snapshots

    /// `key` has `snapshot` as its newest (a fill of this replica stored it, or a refresh
    /// found it): its watchers get an event.
    func publish(_ key: CacheKey, _ snapshot: Snapshot) {
        guard let entry = state.withLock({ $0.keys[key] }) else { return }
        entry.advance(to: snapshot)
    }

    func stored(_ key: CacheKey, _ snapshot: Snapshot) {
        publish(key, snapshot)
    }

    /// Another replica stored the newest snapshot of the key named `eventKey` on the shared
    /// store's events channel: watched here, it is loaded and becomes an event.
    func storedElsewhere(_ eventKey: String) {
        let entries = state.withLock { $0.keys.values.filter { $0.eventKey == eventKey } }
        for entry in entries {
            Task {
                guard let cache = gateway?.cache, let newest = await cache.current(entry.key) else { return }
                entry.advance(to: newest)
            }
        }
    }

    /// `route`'s newest snapshots were dropped (purge, an unsafe method's 2xx, here or on
    /// another replica): its watched keys are refilled at once.
    func dropped(route: String) {
        let entries = state.withLock { $0.keys.values.filter { $0.route == route } }
        for entry in entries {
            entry.setRefresher(WatchRefresher.start(entry, hub: self, immediately: true))
        }
    }

    // MARK: Heartbeats

    /// Wakes every stream each `server.watch.heartbeat` (the gateway's now, so a reload may
    /// change it) while any is open.
    private func startTicker() {
        state.withLock { state in
            guard state.ticker == nil, !state.ended else { return }
            state.ticker = Task { [weak self] in
                while let interval = self?.gateway?.configuration.server.watch.heartbeat {
                    do { try await Task.sleep(for: interval) } catch { return }
                    guard let keys = self?.keysOrStop() else { return }
                    for entry in keys {
                        for watcher in entry.watchers { watcher.signal(.heartbeat) }
                    }
                }
            }
        }
    }

    /// The watched keys, or nil (and the ticker forgotten) when there are none.
    private func keysOrStop() -> [WatchedKey]? {
        state.withLock { state in
            guard !state.keys.isEmpty else {
                state.ticker = nil
                return nil
            }
            return Array(state.keys.values)
        }
    }
}

/// What a cache tells of the snapshots it stores and drops (`FillCoalescer`): the watch hub
/// listens.
protocol SnapshotEvents: Sendable {
    /// A fill installed `snapshot` as the newest of `key` (a new token).
    func stored(_ key: CacheKey, _ snapshot: Snapshot)
    /// Every key of `route` was dropped.
    func dropped(route: String)
}
