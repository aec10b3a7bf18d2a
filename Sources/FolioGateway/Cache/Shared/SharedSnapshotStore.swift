import FolioEngine
import FolioRedis
import FolioRedisStore
import Foundation
import Logging
import Synchronization

/// `cache.store: redis` (README, "Several replicas"): snapshots shared by every
/// replica through Redis, with this process's `MemorySnapshotStore` (`localMaxBytes`) in front.
///
/// Reads go to the local layer first; Redis is asked only when the local copy is missing or
/// stale, so a cached page costs what it costs with `store: memory`. A snapshot loaded from
/// Redis is indexed again and its token checked (a mismatch is a miss, counted and logged).
/// Every write and drop also goes to Redis and is announced on the events channel, so other
/// replicas wake their waiters and stop serving dropped lists. While Redis is unavailable
/// (`StoreHealth`) the store is a memory store: nothing waits on Redis, nothing fails.
public final class SharedSnapshotStore: SnapshotStore {
    /// What a replica needs to turn a route's stored list into a snapshot it serves: the
    /// route's section key and order (built before the snapshot is shared, as a fill does),
    /// and how long its superseded snapshots answer pinned links.
    struct RouteShape: Sendable {
        /// `CompiledRoute.listVariant`: the keys this shape's lists are under.
        var variant: String
        var sectionKey: FieldPath?
        var defaultSort: SortSpec
        var retention: Duration
        var searchable: [FieldPath] = []
    }

    let local: MemorySnapshotStore
    let redis: RedisSnapshots
    let health: StoreHealth
    let waiters = FillWaiters()
    /// This replica, in lock owners and events.
    let origin = UUID().uuidString
    let logger: Logger
    let now: @Sendable () -> ContinuousClock.Instant
    /// Wall-clock milliseconds: the instants replicas share (they share no monotonic clock).
    let wallClock: @Sendable () -> Int64
    private let shapes = Mutex<[String: RouteShape]>([:])
    /// Copies to Redis started by `install`, until the fill that holds the key's lock takes them.
    private let writes = Mutex<[CacheKey: Task<Void, Never>]>([:])
    /// Loads from Redis in flight, by cache key or token: concurrent requests share one.
    private let loads = Mutex<[String: Task<Snapshot?, Never>]>([:])
    /// Called when another replica dropped a route (the gateway stops its own fills of it from
    /// installing what the drop removed).
    private let dropHandler = Mutex<(@Sendable (String) -> Void)?>(nil)
    /// This replica's drops until Redis took them (their routes are not loaded from Redis
    /// meanwhile); those it could not take wait for `replayDrops`.
    let pendingDrops = PendingDrops()
    /// Retention steps of drops that failed, for the probe to send again.
    let unfinishedRetires = UnfinishedRetires()
    /// The events subscription has failed since it last worked: on its return, drops it
    /// missed must be caught up (`resubscribed`).
    private let subscriptionLost = Atomic<Bool>(false)
    /// Per route, Redis's drop count when the events subscription last came up, for the routes
    /// of which no drop has been heard or made since (nil: none read). A lost subscription
    /// missed no drop of a route whose count has not moved meanwhile.
    private let dropCountsAtSubscription = Mutex<[String: Int64]?>(nil)
    /// Per route, bumped by every drop this replica hears of (its own, another replica's, the
    /// catch-up after a lost subscription). A load from Redis that read before a drop may hold
    /// the dropped list: it installs nothing when its route's value moved meanwhile.
    private let dropGenerations = Mutex<[String: Int]>([:])

    init(
        local: MemorySnapshotStore, redis: RedisSnapshots, health: StoreHealth, logger: Logger,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        wallClock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }
    ) {
        self.local = local
        self.redis = redis
        self.health = health
        self.logger = logger
        self.now = now
        self.wallClock = wallClock
    }

    /// The routes of the configuration in force (set by each gateway, reloads included).
    func describe(_ routes: [CompiledRoute]) {
        shapes.withLock { shapes in
            shapes = Dictionary(
                routes.map {
                    (
                        $0.config.name,
                        RouteShape(
                            variant: $0.listVariant, sectionKey: $0.sectionKey, defaultSort: $0.defaultSort,
                            retention: $0.config.cache.snapshotRetention, searchable: $0.config.searchable)
                    )
                }, uniquingKeysWith: { first, _ in first })
        }
    }

    func onRemoteDrop(_ handler: @escaping @Sendable (String) -> Void) {
        dropHandler.withLock { $0 = handler }
    }

    // MARK: SnapshotStore

    public func current(_ key: CacheKey) async -> Snapshot? {
        let held = local.current(key)
        if let held, held.isFresh(at: now()) { return held }
        guard health.isAvailable, let generation = loadGeneration(key.route), let shape = shape(for: key) else {
            return held
        }
        // A request after a drop never joins a load that began before it.
        let loaded = await coalesced("key:\(RedisSnapshotKeys.hash(key)):\(generation)") {
            await self.loadNewest(key, shape: shape, since: generation)
        }
        // Read again: a drop during the load removed `held` too.
        return loaded ?? local.current(key)
    }

    /// The local copy while it is fresh: `current` would return it without asking Redis.
    public func currentIfHeld(_ key: CacheKey) -> Snapshot? {
        guard let held = local.current(key), held.isFresh(at: now()) else { return nil }
        return held
    }

    public func retained(_ key: CacheKey, token: String) async -> RetainedSnapshot? {
        if let held = local.retained(key, token: token) { return held }
        guard health.isAvailable, let shape = shape(for: key), SnapshotToken.isWellFormed(token) else { return nil }
        _ = await coalesced("token:\(RedisSnapshotKeys.hash(key)):\(token)") {
            await self.loadRetained(key, token: token, shape: shape)
        }
        return local.retained(key, token: token)
    }

    /// Installs locally at once; the copy to Redis runs on its own, so this replica's
    /// requesters are answered without waiting for it. A fill holding the key's lock waits for
    /// the copy before releasing the lock (`takeWrite`), so other replicas find it.
    ///
    /// Only a fill that held the key's lock in Redis (`coordinate`) is copied, and only if no drop
    /// of its route reached Redis since it took the lock (`fillDropEpoch`): a list fetched
    /// before a drop must not become every replica's newest after it. A fill made without the
    /// lock (Redis unavailable when it began) stays this replica's.
    public func install(_ snapshot: Snapshot, for key: CacheKey, retention: Duration, staleFor: Duration) async -> Bool
    {
        guard local.install(snapshot, for: key, retention: retention, staleFor: .zero) else { return false }
        guard health.isAvailable, let dropEpoch = Self.fillDropEpoch, let shape = shape(for: key) else { return true }
        let now = now()
        let servable = max(.seconds(1), (snapshot.freshUntil - now) + staleFor)
        let stored = stored(snapshot, sort: shape.defaultSort, now: now)
        let write = Task {
            do throws(RedisError) {
                guard
                    try await redis.write(
                        stored, for: key, expiry: servable, retention: retention, dropEpoch: dropEpoch)
                else {
                    logger.debug("a drop overtook the fill: not shared", metadata: ["folio.route": "\(key.route)"])
                    return
                }
                await announce(SharedStoreEvent(kind: .stored, origin: origin, key: RedisSnapshotKeys.hash(key)))
            } catch {
                health.failed(.write, error)
            }
        }
        writes.withLock { $0[key] = write }
        return true
    }

    /// The copy to Redis that `install` started for `key`, if one is running.
    func takeWrite(_ key: CacheKey) -> Task<Void, Never>? {
        writes.withLock { $0.removeValue(forKey: key) }
    }

    public func supersede(route: String, retention: Duration) async {
        let pending = pendingDrops.keep(route, retention: retention)
        forgetDropCount(of: route)
        bumpDropGeneration(of: [route])
        local.supersede(route: route, retention: retention)
        await drop(route: route, pending)
    }

    /// A reload changed or removed `route`: this replica forgets its copies, and Redis keeps
    /// its lists for the replicas still on the old config. Those lists are under keys with
    /// the old settings' `CacheKey.variant` when the change shaped the list
    /// (`CompiledRoute.listVariant`), so this replica never loads them; when it did not, they
    /// are the same lists the new config would fetch.
    public func remove(route: String) async {
        bumpDropGeneration(of: [route])
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
        guard let event = SharedStoreEvent.decode(payload), event.origin != origin else { return }
        switch event.kind {
        case .stored, .failed:
            if let key = event.key { waiters.wake(key) }
        case .dropped:
            guard let route = event.route else { return }
            forgetDropCount(of: route)
            bumpDropGeneration(of: [route])
            local.supersede(route: route, retention: .milliseconds(event.retentionMilliseconds ?? 0))
            dropHandler.withLock { $0 }?(route)
        }
    }

    func announce(_ event: SharedStoreEvent) async {
        do {
            try await redis.publish(event.encoded)
        } catch {
            health.failed(.write, error)
        }
    }

    // MARK: Loading

    /// Sends a drop `supersede` kept (`pendingDrops`, before its local part): it stays
    /// pending, so no request loads the route from Redis, until Redis removed the route's
    /// newest pointers and the other replicas were told. While Redis is unavailable, or when it
    /// refuses, it waits for `replayDrops`. `pending` carries the longest retention of the drops
    /// of `route` not yet taken.
    private func drop(route: String, _ pending: PendingDrops.Drop) async {
        guard health.isAvailable else { return pendingDrops.failed(route, ticket: pending.ticket) }
        let retired: [RedisSnapshots.RetiredSnapshot]
        do {
            retired = try await sendDrop(route: route, retention: pending.retention)
        } catch {
            pendingDrops.failed(route, ticket: pending.ticket)
            return health.failed(.drop, error)
        }
        pendingDrops.sent(route, ticket: pending.ticket)
        await retire(
            .init(snapshots: retired, retention: pending.retention, atMilliseconds: wallClock(), attempts: 0))
    }

    /// Removes `route`'s newest pointers in Redis and announces the drop (two round trips,
    /// however many cache keys the route has); returns the snapshots the pointers named.
    private func sendDrop(
        route: String, retention: Duration
    ) async throws(RedisError) -> [RedisSnapshots.RetiredSnapshot] {
        let retired = try await redis.dropPointers(route: route)
        try await redis.publish(
            SharedStoreEvent(
                kind: .dropped, origin: origin, route: route, retentionMilliseconds: retention.milliseconds
            )
            .encoded)
        return retired
    }

    /// Keeps the snapshots a drop's pointers named for what is left of its retention (pinned
    /// links). Once the pointers are gone the drop is done, so this runs after it stopped being
    /// pending; one that fails is kept for `retryRetires`. A snapshot filled again since the
    /// drop (the same list) is spared. Returns whether it went.
    @discardableResult
    private func retire(_ retire: UnfinishedRetires.Retire) async -> Bool {
        guard !retire.snapshots.isEmpty else { return true }
        let elapsed = Duration.milliseconds(max(0, wallClock() - retire.atMilliseconds))
        do {
            try await redis.retire(
                retire.snapshots, retention: max(.zero, retire.retention - elapsed),
                atMilliseconds: retire.atMilliseconds, sparingRefilled: true)
            return true
        } catch {
            health.failed(.drop, error)
            var again = retire
            again.attempts += 1
            if !unfinishedRetires.keep(again) {
                logger.warning(
                    "gave up shortening the expiry of dropped snapshots",
                    metadata: ["snapshots": "\(retire.snapshots.count)", "error": "\(error)"])
            }
            return false
        }
    }

    /// Sends the retention steps that failed again, in order, until one fails (the rest wait
    /// for the next probe, their attempts not counted).
    func retryRetires() async {
        var retires = unfinishedRetires.takeAll()[...]
        while let next = retires.popFirst() {
            guard await retire(next) else {
                for rest in retires { _ = unfinishedRetires.keep(rest) }
                return
            }
        }
    }

    /// Sends the drops Redis did not take (it was unavailable, or refused), then marks the
    /// store available and sends their retention steps. Returns whether all of them went; when
    /// Redis could not be reached the store stays unavailable (the next ping retries). A drop
    /// Redis answers but refuses (a read-only replica after a failover) stays pending, its
    /// route kept off Redis, and does not keep the store from the other routes; the probe
    /// sends it again every interval. Drops still on their way are their senders' to finish.
    /// They go in the order of their latest keep (their tickets).
    func replayDrops() async -> Bool {
        var refused = false
        var retires: [UnfinishedRetires.Retire] = []
        for (route, drop) in pendingDrops.failedDrops.sorted(by: { $0.value.ticket < $1.value.ticket }) {
            let retired: [RedisSnapshots.RetiredSnapshot]
            do {
                retired = try await sendDrop(route: route, retention: drop.retention)
            } catch {
                health.failed(.drop, error)
                guard error.isServerError else {
                    // The drops taken so far are done: their retention steps wait for the probe.
                    for retire in retires { _ = unfinishedRetires.keep(retire) }
                    return false
                }
                refused = true
                continue
            }
            pendingDrops.sent(route, ticket: drop.ticket)
            retires.append(
                .init(snapshots: retired, retention: drop.retention, atMilliseconds: wallClock(), attempts: 0))
        }
        health.succeeded()
        for retire in retires { await self.retire(retire) }
        return !refused
    }

    /// The events subscription failed: drops announced until it is back are not heard.
    func subscriptionFailed(_ error: RedisError) {
        subscriptionLost.store(true, ordering: .relaxed)
        health.failed(.subscribe, error)
    }

    /// The events subscription works (again). After a failure, other replicas' drops may
    /// have been missed: loads from Redis in flight install nothing (they read before the
    /// catch-up), and `checkDropCounts` finds the routes whose lists may be stale.
    func resubscribed() async {
        await checkDropCounts(afterLoss: subscriptionBack())
    }

    /// The part of `resubscribed` that runs at once; whether the subscription had been lost.
    func subscriptionBack() -> Bool {
        guard subscriptionLost.exchange(false, ordering: .relaxed) else { return false }
        // Redis just answered SUBSCRIBE: it is reachable. Waiting for the next ping instead left
        // a window where every replica filled its lists from the upstream without the lock.
        health.succeeded()
        bumpDropGeneration(of: shapes.withLock { Array($0.keys) })
        return true
    }

    /// Reads each route's drop count in Redis. After a lost subscription, every route whose
    /// count moved since the subscription last came up (or that cannot be vouched for: a drop
    /// heard or made since, a count not read) is treated as dropped: its local copies go back
    /// to being retained (pinned links still work), the next request for each list asks Redis
    /// which snapshot is current (a copy Redis still names is current again without being read
    /// back: `adopt`), and fills that began before install nothing. Other routes keep their
    /// copies and their fills.
    func checkDropCounts(afterLoss lost: Bool) async {
        let routes = shapes.withLock { $0 }
        let names = Array(routes.keys)
        var counts: [String: Int64]?
        do {
            counts = Dictionary(uniqueKeysWithValues: zip(names, try await redis.dropEpochs(routes: names)))
        } catch {
            health.failed(.read, error)
        }
        let before = dropCountsAtSubscription.withLock { kept in
            defer { kept = counts }
            return kept
        }
        guard lost else { return }
        let missed = routes.filter { route, _ in
            guard let was = before?[route], let now = counts?[route] else { return true }
            return was != now
        }
        bumpDropGeneration(of: missed.keys)
        let forget = dropHandler.withLock { $0 }
        for (route, shape) in missed {
            local.supersede(route: route, retention: shape.retention)
            // Fills that began before a missed drop install nothing.
            forget?(route)
        }
        logger.notice(
            "shared store events back",
            metadata: [
                "routes_checked_against_redis": .stringConvertible(missed.count),
                "routes_kept": .stringConvertible(routes.count - missed.count),
            ])
    }

    /// A drop of `route` was heard or made: its count no longer vouches for what this replica
    /// holds.
    private func forgetDropCount(of route: String) {
        dropCountsAtSubscription.withLock { _ = $0?.removeValue(forKey: route) }
    }

    /// The newest snapshot Redis holds for `key`, installed locally (`held` renewed when Redis
    /// holds the same list with later freshness: another replica revalidated it).
    func loadNewest(_ key: CacheKey, shape: RouteShape, since generation: Int) async -> Snapshot? {
        do {
            guard let newest = try await newest(key) else { return nil }
            return try await adopt(newest, key: key, shape: shape, since: generation)
        } catch {
            health.failed(.read, error)
            return nil
        }
    }

    /// `key`'s superseded snapshot with `token` (or its newest, when this replica has not loaded
    /// it yet), kept locally as retained. Only `key`'s own snapshots are read: the same token
    /// under another cache key is another route's, path's or partition's list.
    private func loadRetained(_ key: CacheKey, token: String, shape: RouteShape) async -> Snapshot? {
        do {
            guard let stored = try await redis.read(key, token: token) else {
                // Absent, or held with items that do not give the token (torn, tampered): the
                // latter is a miss that is logged and counted like a current list's (SPEC 5.5).
                if try await redis.holdsRecord(key, token: token) { refused(key, token: token) }
                return nil
            }
            let superseded = try await redis.superseded(key, token: token)
            let snapshot = await FillWorkers.shared.run { [self] in self.snapshot(stored, shape: shape) }
            let now = now()
            let supersededAt = superseded.map { instant(ofMilliseconds: $0.atMilliseconds, now: now) } ?? now
            let left = superseded?.left ?? shape.retention
            local.retain(snapshot, for: key, supersededAt: supersededAt, retention: (now - supersededAt) + left)
            return snapshot
        } catch {
            health.failed(.read, error)
            return nil
        }
    }

    /// Runs `load` once for `name` however many requests ask at the same time.
    private func coalesced(_ name: String, _ load: @escaping @Sendable () async -> Snapshot?) async -> Snapshot? {
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

    func shape(_ route: String) -> RouteShape? {
        shapes.withLock { $0[route] }
    }

    /// The shape of `key`'s route when `key` belongs to the configuration in force: a fill or
    /// load of a gateway a reload replaced, whose route's list settings changed, is not shared
    /// (it would write its list with the new config's sort, or build the new order on it).
    func shape(for key: CacheKey) -> RouteShape? {
        guard let shape = shape(key.route), shape.variant == key.variant else { return nil }
        return shape
    }

    // MARK: Drop generations

    /// `route`'s drop generation: read before asking Redis for a list, passed to `adopt`.
    func dropGeneration(_ route: String) -> Int {
        dropGenerations.withLock { $0[route, default: 0] }
    }

    /// `route`'s drop generation when its lists may be loaded from Redis now; nil while a drop
    /// of it is pending (Redis still points at what it removes). Read in this order, a drop
    /// kept after the check still moves the generation, so the load installs nothing.
    func loadGeneration(_ route: String) -> Int? {
        let generation = dropGeneration(route)
        return pendingDrops.isPending(route) ? nil : generation
    }

    private func bumpDropGeneration(of routes: some Sequence<String>) {
        dropGenerations.withLock { for route in routes { $0[route, default: 0] &+= 1 } }
    }

    /// Installs a list loaded from Redis as `key`'s current one, unless a drop of its route
    /// came after `generation` was read. Checked again after installing: a drop between the
    /// check and the install would have missed the list, so it is superseded here.
    func installLoaded(_ snapshot: Snapshot, for key: CacheKey, shape: RouteShape, since generation: Int) -> Bool {
        guard dropGeneration(key.route) == generation else { return false }
        _ = local.install(snapshot, for: key, retention: shape.retention, staleFor: .zero)
        guard dropGeneration(key.route) == generation else {
            local.supersede(route: key.route, retention: shape.retention)
            return false
        }
        return true
    }

    /// The route's drop count in Redis when the fill running in this task took its key's lock
    /// (`coordinate`); nil outside such a fill.
    @TaskLocal static var fillDropEpoch: Int64?

    /// Loads from Redis in flight (tests wait for one to start).
    var loadsInFlight: Int { loads.withLock { $0.count } }

    // MARK: Clocks

    /// The instant of a wall-clock time on this replica's clock (never in the future: a
    /// filler whose clock runs ahead stored it now, not later).
    func instant(ofMilliseconds milliseconds: Int64, now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        now - .milliseconds(max(0, wallClock() - milliseconds))
    }

    func stored(_ snapshot: Snapshot, sort: SortSpec, now: ContinuousClock.Instant) -> StoredList {
        StoredList(
            list: snapshot.list, token: snapshot.token, sort: sort.texts,
            storedAtMilliseconds: wallClock() - (now - snapshot.storedAt).milliseconds,
            lifetimeMilliseconds: (snapshot.freshUntil - snapshot.storedAt).milliseconds, etag: snapshot.etag,
            lastModified: snapshot.lastModified, mustRevalidate: snapshot.mustRevalidate,
            initialAgeMilliseconds: snapshot.initialAge.milliseconds)
    }

    /// A stored list as this replica serves it: indexed, with the route's order built.
    func snapshot(_ stored: StoredList, shape: RouteShape) -> Snapshot {
        let storedAt = instant(ofMilliseconds: stored.storedAtMilliseconds, now: now())
        let indexes = SnapshotIndexes(list: stored.list, sectionKey: shape.sectionKey)
        indexes.prepare(shape.defaultSort)
        FillPipeline.prepareSearch(indexes, shape.searchable)
        return Snapshot(
            list: stored.list, token: stored.token, storedAt: storedAt,
            freshUntil: storedAt + .milliseconds(stored.lifetimeMilliseconds), etag: stored.etag,
            lastModified: stored.lastModified, mustRevalidate: stored.mustRevalidate,
            initialAge: .milliseconds(stored.initialAgeMilliseconds), indexes: indexes)
    }

    /// `held` with the freshness another replica stored for the same list.
    func snapshot(_ held: Snapshot, renewedBy freshness: StoredFreshness) -> Snapshot {
        let storedAt = instant(ofMilliseconds: freshness.storedAtMilliseconds, now: now())
        return held.renewed(
            storedAt: storedAt, freshUntil: freshUntil(freshness, storedAt: storedAt), etag: freshness.etag,
            lastModified: freshness.lastModified, mustRevalidate: freshness.mustRevalidate,
            initialAge: .milliseconds(freshness.initialAgeMilliseconds))
    }

    /// Until when a list stored with `freshness` is fresh, on this replica's clock.
    func freshUntil(_ freshness: StoredFreshness, storedAt: ContinuousClock.Instant? = nil) -> ContinuousClock.Instant {
        (storedAt ?? instant(ofMilliseconds: freshness.storedAtMilliseconds, now: now()))
            + .milliseconds(freshness.lifetimeMilliseconds)
    }
}
