import FolioEngine
import FolioRedisStore

extension SharedSnapshotStore {
    /// Serves a gateway's `routes`: what the store must know of them, and where other replicas' drops (the cache
    /// stops the fills they began before) and stored lists (watched keys get an event) arrive.
    func serve(_ routes: [CompiledRoute], cache: FillCoalescer, watches: WatchHub) {
        describe(routes)
        onRemoteDrop { route in cache.droppedElsewhere(route: route) }
        onRemoteStored { eventKey in watches.storedElsewhere(eventKey) }
    }

    /// How the shared store's events name a key (nil for other stores).
    static func eventKeys(_ store: any SnapshotStore) -> (@Sendable (CacheKey) -> String)? {
        guard let shared = store as? SharedSnapshotStore else { return nil }
        return { key in shared.eventKey(for: key) }
    }
}
