import FolioEngine
import FolioRedis
import Foundation
import Logging
import Synchronization

/// One fill for all replicas (docs/SHARED-STORE.md, "One fill for all replicas"): a lock per
/// cache key in Redis (`SET NX PX`, released by compare-and-delete) with a short lease
/// (`lease`) that the filler renews while it works, for at most the fill's timeout. The
/// replica holding it fetches; the others wait for its `stored` event (or look again every
/// 200 ms) and load what it stored. When the filler fails, its waiters read why and answer
/// with that error; when it stored nothing shareable, or it died (its lease lapsed), one of
/// them takes the lock and fills.
///
/// Generic over what a fill gives (`FillOutcome`): the outcome says what it tells the waiters.
final class FillLock: Sendable {
    /// How often a waiter looks again without an event.
    static let pollInterval = Duration.milliseconds(200)
    /// How long a fill lock lasts unless its filler renews it: how long the waiters of a filler
    /// that died wait before one of them takes over.
    static let lease = Duration.milliseconds(1500)
    /// How often a filler renews its lease: three times per lease, so one late renewal loses
    /// nothing.
    static let renewal = Duration.milliseconds(500)

    /// The route's shared drop generation when the fill running in this task took its key's
    /// lock; nil outside such a fill. Only such a fill's list is copied to Redis (`share`).
    @TaskLocal static var fillDropGeneration: Int64?

    let context: StoreContext
    let loader: SnapshotLoader
    /// This replica's requests waiting for another replica's fill.
    let waiters = FillWaiters()
    /// Copies to Redis started by `share`, until the fill that holds the key's lock takes them.
    private let writes = Mutex<[CacheKey: Task<Void, Never>]>([:])
    /// Fills of this replica that answered and are still copying their list to Redis (then
    /// releasing the key's lock), by key.
    private let releases = Mutex<[CacheKey: Task<Void, Never>]>([:])

    init(context: StoreContext, loader: SnapshotLoader) {
        self.context = context
        self.loader = loader
    }

    /// Runs `fill` when this replica is the one to fill `key` now; otherwise waits for the
    /// replica that is, and returns what it stored (or how it failed). `timeout` bounds the
    /// fill: the lease is renewed for that long at most, and a waiter waits that long for one
    /// holder.
    func coordinate<Outcome: FillOutcome>(
        _ key: CacheKey, shape: RouteShape, timeout: Duration, fill: @escaping @Sendable () async throws -> Outcome
    ) async throws -> LockedFill<Outcome> {
        let hash = RedisSnapshotKeys.hash(key)
        // Long enough for one filler's fill to end (it renews its lease for `timeout`); moved on for
        // each new holder, so the waiters of a filler that died wait for the replica that took
        // over instead of all fetching once their first deadline passed.
        var deadline = context.clock.now() + timeout + .seconds(1)
        var waited = false
        // This replica's own fill of the key answered and is copying its list: that copy, not
        // another fill, is what this request waits for, and it loads the list after it (a hit:
        // before, it waited on its own replica's lock and read `fwd=miss; collapsed`).
        if let releasing = releases.withLock({ $0[key] }) { await releasing.value }
        while true {
            guard context.health.isAvailable, let generation = context.drops.loadableGeneration(of: key.route),
                context.clock.now() < deadline
            else { break }
            let owner = "\(context.origin)/\(UUID().uuidString)"
            let before: SnapshotLoader.Newest?
            let locked: Bool
            let dropGeneration: Int64
            do {
                before = try await loader.newest(key)
                if let before, context.clock.isFresh(before.freshness),
                    let shared = try await loader.adopt(before, key: key, shape: shape, since: generation)
                {
                    return .shared(shared, waited: waited)
                }
                // Read before the fetch: a drop that reaches Redis after this keeps the list
                // this fill fetches from becoming newest there.
                dropGeneration = try await context.redis.drops.dropGeneration(route: key.route)
                locked = try await context.redis.locks.lock(key, owner: owner, expiry: Self.lease)
            } catch {
                context.health.failed(.lock, error)
                break
            }
            if locked {
                let held = Held(owner: owner, renewing: renew(key, owner: owner, longest: timeout))
                // A filler may have stored and released between the look above and the lock.
                if let shared = await storedMeanwhile(key, before: before, shape: shape) {
                    await release(key, held, hash: hash, failure: nil)
                    return .shared(shared, waited: waited)
                }
                return try await Self.$fillDropGeneration.withValue(dropGeneration) {
                    try await lead(key, held, hash: hash, fill: fill)
                }
            }

            // Another replica fills: wait until its lock is gone or a new list is stored.
            waited = true
            do {
                let holder = try await context.redis.locks.lockOwner(key)
                if holder != nil { deadline = max(deadline, context.clock.now() + timeout + .seconds(1)) }
                var owner = holder
                while owner != nil, owner == holder, context.clock.now() < deadline {
                    await waiters.wait(for: hash, longest: Self.pollInterval)
                    // A drop of the route came: this replica fills for itself (below).
                    guard let generation = context.drops.loadableGeneration(of: key.route) else { break }
                    if let after = try await loader.newest(key), after != before,
                        let shared = try await loader.adopt(after, key: key, shape: shape, since: generation)
                    {
                        return .shared(shared, waited: true)
                    }
                    owner = try await context.redis.locks.lockOwner(key)
                }
                // Each requester of an uncacheable list needs its own answer: no lock, no turn
                // after the others (before, replicas fetched one lock holder at a time).
                if let holder, try await context.redis.locks.isUnshared(key, owner: holder) {
                    return .filled(try await fill())
                }
                if let holder, let recorded = try await context.redis.locks.failure(key, owner: holder) {
                    return .failedElsewhere(FillFailure(recorded))
                }
            } catch let error as RedisError {
                context.health.failed(.lock, error)
                break
            }
        }
        return .filled(try await fill())
    }

    /// Starts copying the list a fill installed to Redis, and returns at once (this replica's
    /// requesters are answered without waiting for it); the fill waits for the copy before it
    /// releases the key's lock, so other replicas find it.
    ///
    /// Only a fill that holds the key's lock (`fillDropGeneration`) is copied, and only if no
    /// drop of its route reached Redis since it took the lock: a list fetched before a drop
    /// must not become every replica's newest after it. A fill made without the lock (Redis
    /// unavailable when it began) stays this replica's. Returns whether the copy began.
    @discardableResult
    func share(
        _ snapshot: Snapshot, for key: CacheKey, shape: RouteShape, retention: Duration, staleFor: Duration
    ) -> Bool {
        guard let dropGeneration = Self.fillDropGeneration else { return false }
        let now = context.clock.now()
        let servable = max(.seconds(1), (snapshot.freshUntil - now) + staleFor)
        let stored = context.clock.stored(snapshot, sort: shape.defaultSort, now: now)
        let write = Task {
            do throws(RedisError) {
                guard
                    try await context.redis.write(
                        stored, for: key, expiry: servable, retention: retention, dropGeneration: dropGeneration)
                else {
                    context.logger.debug(
                        "a drop overtook the fill: not shared", metadata: ["folio.route": "\(key.route)"])
                    return
                }
                await announce(
                    SharedStoreEvent(kind: .stored, origin: context.origin, key: RedisSnapshotKeys.hash(key)))
            } catch {
                context.health.failed(.write, error)
            }
        }
        writes.withLock { $0[key] = write }
        return true
    }

    /// The copy to Redis that `share` started for `key`, if one is running.
    func takeWrite(_ key: CacheKey) -> Task<Void, Never>? {
        writes.withLock { $0.removeValue(forKey: key) }
    }

    /// Another replica stored or failed the key hashed as `keyHash`: its waiters here look now.
    func wake(_ keyHash: String) {
        waiters.wake(keyHash)
    }

    /// Runs the fill while holding the lock. The store's `install` (called inside `fill`)
    /// starts copying the list to Redis; this replica's requesters are answered at once, and the
    /// lock is released once the copy is written and announced.
    private func lead<Outcome: FillOutcome>(
        _ key: CacheKey, _ held: Held, hash: String, fill: @Sendable () async throws -> Outcome
    ) async throws -> LockedFill<Outcome> {
        let outcome: Outcome
        do {
            outcome = try await fill()
        } catch {
            await release(key, held, hash: hash, failure: Outcome.failure(error))
            throw error
        }
        // Nothing shared after an answer that may not be: every waiter fills for itself, at once.
        let (failure, unshared): (FillFailure?, Bool) =
            switch outcome.end {
            case .shareable: (nil, false)
            case .unshared: (nil, true)
            case .failed(let failure): (failure, false)
            }
        let write = takeWrite(key)
        let releasing = Task {
            await write?.value
            await release(key, held, hash: hash, failure: failure, unshared: unshared)
        }
        releases.withLock { $0[key] = releasing }
        Task {
            await releasing.value
            releases.withLock { if $0[key] == releasing { $0[key] = nil } }
        }
        return .filled(outcome)
    }

    /// A fill lock this replica holds: its owner name, and the task renewing its lease.
    private struct Held {
        var owner: String
        var renewing: Task<Void, Never>
    }

    /// Renews `key`'s lease every `renewal` while `owner` holds it (taking it again if a stall
    /// let it lapse and nobody took it), for at most `longest` (the fill's timeout: a fill that
    /// hangs past it lets the others take over); cancelled, and awaited, before the lock is
    /// released. A failed renewal is tried again at the next turn: the lease outlives two.
    private func renew(_ key: CacheKey, owner: String, longest: Duration) -> Task<Void, Never> {
        let turns = Int(longest / Self.renewal) + 1
        let locks = context.redis.locks
        return Task {
            for _ in 0..<turns {
                guard (try? await Task.sleep(for: Self.renewal)) != nil else { return }
                do throws(RedisError) {
                    guard try await locks.renew(key, owner: owner, expiry: Self.lease) else { return }
                } catch {
                    continue
                }
            }
        }
    }

    private func release(
        _ key: CacheKey, _ held: Held, hash: String, failure: FillFailure?, unshared: Bool = false
    ) async {
        // A renewal still on its way could take the lock again after the unlock: it ends first.
        held.renewing.cancel()
        await held.renewing.value
        let owner = held.owner
        do {
            if let failure {
                try await context.redis.locks.recordFailure(
                    key, owner: owner, failure: failure.encoded, expiry: .seconds(10))
            }
            if unshared { try await context.redis.locks.recordUnshared(key, owner: owner, expiry: .seconds(10)) }
            try await context.redis.locks.unlock(key, owner: owner)
        } catch {
            context.health.failed(.lock, error)
        }
        // Wakes the waiters at once instead of at their next look.
        await announce(SharedStoreEvent(kind: .failed, origin: context.origin, key: hash))
    }

    /// A fresh list stored since `before` was read, loaded; nil when there is none or Redis
    /// failed (then the lock holder fills).
    private func storedMeanwhile(
        _ key: CacheKey, before: SnapshotLoader.Newest?, shape: RouteShape
    ) async -> Snapshot? {
        do {
            guard let generation = context.drops.loadableGeneration(of: key.route),
                let after = try await loader.newest(key),
                after != before, context.clock.isFresh(after.freshness)
            else { return nil }
            return try await loader.adopt(after, key: key, shape: shape, since: generation)
        } catch {
            context.health.failed(.read, error)
            return nil
        }
    }

    private func announce(_ event: SharedStoreEvent) async {
        do {
            try await context.redis.publish(event.encoded)
        } catch {
            context.health.failed(.write, error)
        }
    }
}
