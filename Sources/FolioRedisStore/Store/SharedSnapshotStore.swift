import FolioEngine
import FolioRedis
import Foundation
import Logging
import Synchronization

/// `cache.store: redis` (docs/SHARED-STORE.md): snapshots shared by every replica through
/// Redis, with this process's `MemorySnapshotStore` (`localMaxBytes`) in front.
///
/// Reads go to the local layer first; Redis is asked only when the local copy is missing or
/// stale, so a cached page costs what it costs with `store: memory`. Every write and drop also
/// goes to Redis and is announced on the events channel, so other replicas wake their waiters
/// and stop serving dropped lists. While Redis is unavailable (`StoreHealth`) the store is a
/// memory store: nothing waits on Redis, nothing fails.
///
/// The work is the parts' (docs/DESIGN.md, "The shared store in parts"): `SnapshotLoader`
/// loads from Redis, `FillLock` runs one fill for all replicas, `DropLedger` and `DropSync`
/// keep the routes' drops, `ReplicaClock` translates instants. This type holds them together,
/// answers as a `SnapshotStore`, and acts on the events channel.
public final class SharedSnapshotStore: SnapshotStore {
    let context: StoreContext
    let local: MemorySnapshotStore
    let shapes = RouteShapes()
    let loader: SnapshotLoader
    let fillLock: FillLock
    let dropSync: DropSync
    /// Called when another replica dropped a route (the gateway stops its own fills of it from
    /// installing what the drop removed).
    private let dropHandler = Mutex<(@Sendable (String) -> Void)?>(nil)
    /// Called with the event key (`eventKey(for:)`) of every list another replica stored.
    private let storedHandler = Mutex<(@Sendable (String) -> Void)?>(nil)

    init(
        local: MemorySnapshotStore, redis: RedisSnapshots, health: StoreHealth, logger: Logger,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        wallClock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }
    ) {
        context = StoreContext(
            redis: redis, health: health, logger: logger, origin: UUID().uuidString,
            clock: ReplicaClock(now: now, wallClock: wallClock), drops: DropLedger())
        self.local = local
        loader = SnapshotLoader(context: context, local: local)
        fillLock = FillLock(context: context, loader: loader)
        dropSync = DropSync(context: context)
    }

    var redis: RedisSnapshots { context.redis }
    var health: StoreHealth { context.health }
    var clock: ReplicaClock { context.clock }
    var drops: DropLedger { context.drops }

    /// The routes of the configuration in force, by name (set by each gateway, reloads included).
    public func describe(_ shapes: [String: RouteShape]) {
        self.shapes.describe(shapes)
    }

    /// `handler` is told of every route another replica dropped (or may have, after a lost
    /// subscription), once this replica's copies are retained: the gateway's fills of it that
    /// began before must install nothing.
    public func onRemoteDrop(_ handler: @escaping @Sendable (String) -> Void) {
        dropHandler.withLock { $0 = handler }
    }

    /// `handler` is told of every list another replica stored as a key's newest, by the key's
    /// `eventKey(for:)` (the watch streams of this replica load it and send it as an event).
    public func onRemoteStored(_ handler: @escaping @Sendable (String) -> Void) {
        storedHandler.withLock { $0 = handler }
    }

    /// How the events channel names `key` (a hash: no raw value of a request reaches Redis).
    public func eventKey(for key: CacheKey) -> String {
        RedisSnapshotKeys.hash(key)
    }

    /// One fill of `key` for all replicas: runs `fill` under the key's lock in Redis, or waits
    /// for the replica that holds it (`FillLock.coordinate`); a key of a config a reload
    /// replaced is filled here alone.
    public func fillOnce<Outcome: FillOutcome>(
        _ key: CacheKey, timeout: Duration, fill: @escaping @Sendable () async throws -> Outcome
    ) async throws -> LockedFill<Outcome> {
        guard let shape = shapes.shape(for: key) else { return .filled(try await fill()) }
        return try await fillLock.coordinate(key, shape: shape, timeout: timeout, fill: fill)
    }

    // MARK: SnapshotStore

    public func current(_ key: CacheKey) async -> Snapshot? {
        let held = local.current(key)
        if let held, held.isFresh(at: clock.now()) { return held }
        guard health.isAvailable, let generation = drops.loadableGeneration(of: key.route),
            let shape = shapes.shape(for: key)
        else { return held }
        let loaded = await loader.current(key, shape: shape, since: generation)
        // Read again: a drop during the load removed `held` too.
        return loaded ?? local.current(key)
    }

    /// The local copy while it is fresh: `current` would return it without asking Redis.
    public func currentIfHeld(_ key: CacheKey) -> Snapshot? {
        guard let held = local.current(key), held.isFresh(at: clock.now()) else { return nil }
        return held
    }

    public func retained(_ key: CacheKey, token: String) async -> RetainedSnapshot? {
        if let held = local.retained(key, token: token) { return held }
        guard health.isAvailable, let shape = shapes.shape(for: key), SnapshotToken.isWellFormed(token) else {
            return nil
        }
        return await loader.retained(key, token: token, shape: shape)
    }

    /// Installs locally at once; a fill holding the key's lock also copies the list to Redis,
    /// on its own (`FillLock.share`). A list larger than the local layer is stored when that
    /// copy began: it is every replica's through Redis, and each request loads it from there
    /// (docs/SHARED-STORE.md, "Lists larger than the local layer"); before, it was stored
    /// nowhere, and every request fetched it from the upstream.
    public func install(
        _ snapshot: Snapshot, for key: CacheKey, retention: Duration, staleFor: Duration
    ) async -> Bool {
        let held = local.install(snapshot, for: key, retention: retention, staleFor: .zero)
        guard health.isAvailable, let shape = shapes.shape(for: key) else { return held }
        let shared = fillLock.share(snapshot, for: key, shape: shape, retention: retention, staleFor: staleFor)
        return held || shared
    }

    public func supersede(route: String, retention: Duration) async {
        let drop = drops.made(route, retention: retention)
        local.supersede(route: route, retention: retention)
        await dropSync.send(route, drop)
    }

    /// A reload changed or removed `route`: this replica forgets its copies, and Redis keeps
    /// its lists for the replicas still on the old config. Those lists are under keys with
    /// the old settings' `CacheKey.variant` when the change shaped the list
    /// (`CompiledRoute.listVariant`), so this replica never loads them; when it did not, they
    /// are the same lists the new config would fetch.
    public func remove(route: String) async {
        drops.removed(route)
        local.remove(route: route)
    }

    public func recount(_ snapshot: Snapshot, for key: CacheKey) async {
        local.recount(snapshot, for: key)
    }

    public func statistics() async -> SnapshotStoreStatistics {
        local.statistics()
    }

    // MARK: Events

    /// Acts on another replica's event: wakes this replica's waiters, drops its local copies.
    func receive(_ payload: [UInt8]) {
        guard let event = SharedStoreEvent.decode(payload), event.origin != context.origin else { return }
        switch event.kind {
        case .stored, .failed:
            if let key = event.key {
                fillLock.wake(key)
                if event.kind == .stored { storedHandler.withLock { $0 }?(key) }
            }
        case .dropped:
            guard let route = event.route else { return }
            drops.heard(route)
            forget(route, retention: .milliseconds(event.retentionMilliseconds ?? 0))
        }
    }

    /// The events subscription failed: drops announced until it is back are not heard.
    func subscriptionFailed(_ error: RedisError) {
        drops.subscriptionFailed()
        health.failed(.subscribe, error)
    }

    /// The events subscription works (again). After a failure, other replicas' drops may
    /// have been missed: loads from Redis in flight install nothing (they read before the
    /// catch-up), and `catchUp` finds the routes whose lists may be stale.
    func resubscribed() async {
        await catchUp(afterLoss: subscriptionBack())
    }

    /// The part of `resubscribed` that runs at once; whether the subscription had been lost.
    func subscriptionBack() -> Bool {
        guard drops.subscriptionBack(routes: shapes.all.keys) else { return false }
        // Redis just answered SUBSCRIBE: it is reachable. Waiting for the next ping instead left
        // a window where every replica filled its lists from the upstream without the lock.
        health.succeeded()
        return true
    }

    /// Reads each route's shared drop generation. After a lost subscription, every route that
    /// may have missed a drop (`DropSync.catchUp`) is treated as dropped: its local copies go
    /// back to being retained (pinned links still work), the next request for each list asks
    /// Redis which snapshot is current (a copy Redis still names is current again without
    /// being read back: `SnapshotLoader.adopt`), and fills that began before install nothing.
    /// Other routes keep their copies and their fills.
    func catchUp(afterLoss lost: Bool) async {
        let routes = shapes.all
        let missed = await dropSync.catchUp(Array(routes.keys), lost: lost)
        guard lost else { return }
        for route in missed {
            forget(route, retention: routes[route]?.retention ?? .zero)
        }
        context.logger.notice(
            "shared store events back",
            metadata: [
                "routes_checked_against_redis": .stringConvertible(missed.count),
                "routes_kept": .stringConvertible(routes.count - missed.count),
            ])
    }

    /// Another replica dropped `route` (or may have): its local copies are retained for
    /// `retention`, and the gateway's fills that began before install nothing.
    private func forget(_ route: String, retention: Duration) {
        local.supersede(route: route, retention: retention)
        dropHandler.withLock { $0 }?(route)
    }
}
