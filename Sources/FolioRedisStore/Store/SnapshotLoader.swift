import FolioEngine
import FolioRedis
import Logging

/// Loads snapshots from Redis into the local layer (docs/SHARED-STORE.md, "Any replica answers
/// any token"): a key's newest, or a retained one for a pinned link, indexed again and checked
/// against its token (a mismatch is a miss, counted and logged). Concurrent requests share one
/// load, and one read of a list's bytes (`reads`: a key's newest loaded for a request and for a
/// fill's waiter at once is read once); reads are counted against the local bound while they
/// run (`LoadBudget`). A load installs its list only if no drop of its route came since it
/// began (the route's drop generation, read by the caller before asking).
final class SnapshotLoader: Sendable {
    /// A key's newest token in Redis with its freshness.
    struct Newest: Equatable {
        var token: String
        var freshness: StoredFreshness
    }

    let context: StoreContext
    let local: MemorySnapshotStore
    private let inFlight = LoadsInFlight<Snapshot?>()
    private let retainedLoads = LoadsInFlight<RetainedSnapshot?>()
    /// Reads of one snapshot's bytes in flight, by cache key and token.
    private let reads = LoadsInFlight<Result<Snapshot?, RedisError>>()
    let budget: LoadBudget

    init(context: StoreContext, local: MemorySnapshotStore) {
        self.context = context
        self.local = local
        budget = LoadBudget(local: local)
    }

    /// The newest snapshot Redis holds for `key`, installed locally (the held one renewed when
    /// Redis holds the same list with later freshness: another replica revalidated it); nil
    /// when there is none, it fails its check, or a drop came after `generation` was read.
    func current(_ key: CacheKey, shape: RouteShape, since generation: Int) async -> Snapshot? {
        // A request after a drop never joins a load that began before it.
        await inFlight.run("key:\(RedisSnapshotKeys.hash(key)):\(generation)") {
            await self.loadNewest(key, shape: shape, since: generation)
        }
    }

    /// Loads `key`'s snapshot with `token` into the local layer as retained (or as its newest,
    /// when it is), if Redis holds it for `key`; returned as well, for a list larger than the
    /// local layer, which does not keep it.
    func retained(_ key: CacheKey, token: String, shape: RouteShape) async -> RetainedSnapshot? {
        await retainedLoads.run("token:\(RedisSnapshotKeys.hash(key)):\(token)") {
            await self.loadRetained(key, token: token, shape: shape)
        }
    }

    /// Loads from Redis in flight (tests wait for one to start).
    var loadsInFlight: Int { inFlight.count + retainedLoads.count }

    /// Reads of a snapshot's bytes in flight (tests).
    var readsInFlight: Int { reads.count }

    /// `key`'s snapshot with `token` read from Redis and built as this replica serves it, once
    /// for all who ask at the same time, within the budget; nil when Redis does not hold all of
    /// it or it fails its check.
    private func read(_ key: CacheKey, token: String, shape: RouteShape) async throws(RedisError) -> Snapshot? {
        try await reads.run("\(RedisSnapshotKeys.hash(key)):\(token)") { [self] in
            let ticket = LoadTicket(budget)
            defer { ticket.release() }
            do throws(RedisError) {
                guard
                    let stored = try await context.redis.read(
                        key, token: token, admitting: { await ticket.admit(listBytes: $0) })
                else { return .success(nil) }
                return .success(await build(stored, shape: shape))
            } catch {
                return .failure(error)
            }
        }.get()
    }

    private func loadNewest(_ key: CacheKey, shape: RouteShape, since generation: Int) async -> Snapshot? {
        do {
            guard let newest = try await newest(key) else { return nil }
            return try await adopt(newest, key: key, shape: shape, since: generation)
        } catch {
            context.health.failed(.read, error)
            return nil
        }
    }

    /// `key`'s superseded snapshot with `token` (or its newest, when this replica has not loaded
    /// it yet), kept locally as retained. Only `key`'s own snapshots are read: the same token
    /// under another cache key is another route's, path's or partition's list.
    private func loadRetained(_ key: CacheKey, token: String, shape: RouteShape) async -> RetainedSnapshot? {
        do {
            guard let snapshot = try await read(key, token: token, shape: shape) else {
                // Absent, or held with items that do not give the token (torn, tampered): the
                // latter is a miss that is logged and counted like a current list's
                // (docs/SHARED-STORE.md, "Integrity").
                if try await context.redis.holdsRecord(key, token: token) { refused(key, token: token) }
                return nil
            }
            let superseded = try await context.redis.superseded(key, token: token)
            let now = context.clock.now()
            let supersededAt =
                superseded.map { context.clock.instant(ofMilliseconds: $0.atMilliseconds, now: now) } ?? now
            let left = superseded?.left ?? shape.retention
            let retention = (now - supersededAt) + left
            guard left >= .zero, retention > .zero else { return nil }
            local.retain(snapshot, for: key, supersededAt: supersededAt, retention: retention)
            return RetainedSnapshot(snapshot: snapshot, supersededAt: supersededAt)
        } catch {
            context.health.failed(.read, error)
            return nil
        }
    }

    /// `key`'s newest token in Redis and its freshness; nil when there is none, or its record
    /// fails its check.
    func newest(_ key: CacheKey) async throws(RedisError) -> Newest? {
        guard let token = try await context.redis.newestToken(for: key) else { return nil }
        guard let freshness = try await context.redis.freshness(key, token: token) else {
            // A record that is there but refused (changed, not Folio's) is a failed check,
            // logged and counted like changed parts (docs/SHARED-STORE.md, "Integrity"); one
            // that is gone is a miss.
            if try await context.redis.holdsRecord(key, token: token) { refused(key, token: token) }
            return nil
        }
        return Newest(token: token, freshness: freshness)
    }

    /// Logs and counts a shared snapshot that failed its check (docs/SHARED-STORE.md,
    /// "Integrity").
    func refused(_ key: CacheKey, token: String) {
        context.health.failed(.verify, nil)
        context.logger.warning(
            "shared snapshot failed its check", metadata: ["folio.route": "\(key.route)", "token": "\(token)"])
    }

    /// `newest` as this replica's current snapshot: its own copy renewed when it holds the same
    /// list, else loaded from Redis and checked (nil when the check fails: a miss). A different
    /// list replaces a held one only when it stays fresh longer: Redis's newest can be older than
    /// the held list when this replica filled while Redis was unavailable (nil then too).
    /// `generation` is the route's drop generation read before `newest`: after a drop since,
    /// `newest` may be the dropped list, and nothing is adopted (nil).
    func adopt(
        _ newest: Newest, key: CacheKey, shape: RouteShape, since generation: Int
    ) async throws(RedisError) -> Snapshot? {
        guard context.drops.generation(of: key.route) == generation else { return nil }
        if let held = local.current(key) {
            if held.token == newest.token {
                let renewed = context.clock.renewed(held, by: newest.freshness)
                guard renewed.freshUntil > held.freshUntil else { return held }
                return install(renewed, for: key, shape: shape, since: generation) ? renewed : nil
            }
            guard context.clock.freshUntil(newest.freshness) > held.freshUntil else { return nil }
        } else if let kept = local.retained(key, token: newest.token)?.snapshot {
            // The same list (its token is its content's hash), retained here since a lost
            // subscription made every copy retained: Redis still names it, so it is current
            // again, with Redis's freshness, without reading its bytes back.
            let renewed = context.clock.renewed(kept, by: newest.freshness)
            return install(renewed, for: key, shape: shape, since: generation) ? renewed : nil
        }
        guard let snapshot = try await read(key, token: newest.token, shape: shape) else {
            refused(key, token: newest.token)
            // Its keys go, so the fill that follows writes the list whole instead of only
            // renewing the expiry of a bad part (a refill of the same list has the same token).
            try? await context.redis.supersede(
                key, token: newest.token, retention: .zero,
                atMilliseconds: context.clock.wallClock())
            return nil
        }
        return install(snapshot, for: key, shape: shape, since: generation) ? snapshot : nil
    }

    /// A stored list as this replica serves it; its route order and search columns are built
    /// on the fill workers, as a fill's are.
    private func build(_ stored: StoredList, shape: RouteShape) async -> Snapshot {
        await FillWorkers.shared.run { [clock = context.clock] in
            shape.snapshot(stored, storedAt: clock.storedAt(stored.storedAtMilliseconds))
        }
    }

    /// Installs a list loaded from Redis as `key`'s current one, unless a drop of its route
    /// came after `generation` was read. Checked again after installing: a drop between the
    /// check and the install would have missed the list, so it is superseded here.
    private func install(_ snapshot: Snapshot, for key: CacheKey, shape: RouteShape, since generation: Int) -> Bool {
        guard context.drops.generation(of: key.route) == generation else { return false }
        _ = local.install(snapshot, for: key, retention: shape.retention, staleFor: .zero)
        guard context.drops.generation(of: key.route) == generation else {
            local.supersede(route: key.route, retention: shape.retention)
            return false
        }
        return true
    }
}
