import FolioEngine
import FolioRedis
import FolioRedisStore
import Foundation

/// One fill for all replicas: a lock per cache key in Redis (`SET NX PX`, released by
/// compare-and-delete) whose expiry is the fill's timeout. The replica holding it fetches; the
/// others wait for its `stored` event (or look again every 200 ms) and load what it stored.
/// When the filler fails, its waiters read why and answer with that error; when it stored
/// nothing shareable, or its lock expired, one of them takes the lock and fills.
extension SharedSnapshotStore: FillCoordination {
    /// A key's newest token in Redis with its freshness.
    struct Newest: Equatable {
        var token: String
        var freshness: StoredFreshness
    }

    /// How often a waiter looks again without an event.
    static let pollInterval = Duration.milliseconds(200)

    func coordinate(
        _ key: CacheKey, timeout: Duration, fill: @escaping @Sendable () async throws -> FillResult
    ) async throws -> CoordinatedFill {
        guard let shape = shape(for: key) else { return .filled(try await fill()) }
        let hash = RedisSnapshotKeys.hash(key)
        // Long enough for one filler's lock to end (it expires after `timeout`); moved on for
        // each new holder, so the waiters of a filler that died wait for the replica that took
        // over instead of all fetching once their first deadline passed.
        var deadline = now() + timeout + .seconds(1)
        var waited = false
        while true {
            guard health.isAvailable, let generation = loadGeneration(key.route), now() < deadline else { break }
            let owner = "\(origin)/\(UUID().uuidString)"
            let before: Newest?
            let locked: Bool
            let dropEpoch: Int64
            do {
                before = try await newest(key)
                if let before, isFresh(before),
                    let shared = try await adopt(before, key: key, shape: shape, since: generation)
                {
                    return .shared(shared, waited: waited)
                }
                // Read before the fetch: a drop that reaches Redis after this keeps the list
                // this fill fetches from becoming newest there.
                dropEpoch = try await redis.dropEpoch(route: key.route)
                locked = try await redis.lock(key, owner: owner, expiry: timeout)
            } catch {
                health.failed(.lock, error)
                break
            }
            if locked {
                // A filler may have stored and released between the look above and the lock.
                if let shared = await storedMeanwhile(key, before: before, shape: shape) {
                    await release(key, owner: owner, hash: hash, failure: nil)
                    return .shared(shared, waited: waited)
                }
                return try await Self.$fillDropEpoch.withValue(dropEpoch) {
                    try await lead(key, owner: owner, hash: hash, fill: fill)
                }
            }

            // Another replica fills: wait until its lock is gone or a new list is stored.
            waited = true
            do {
                let holder = try await redis.lockOwner(key)
                if holder != nil { deadline = max(deadline, now() + timeout + .seconds(1)) }
                var owner = holder
                while owner != nil, owner == holder, now() < deadline {
                    await waiters.wait(for: hash, longest: Self.pollInterval)
                    // A drop of the route came: this replica fills for itself (below).
                    guard let generation = loadGeneration(key.route) else { break }
                    if let after = try await newest(key), after != before,
                        let shared = try await adopt(after, key: key, shape: shape, since: generation)
                    {
                        return .shared(shared, waited: true)
                    }
                    owner = try await redis.lockOwner(key)
                }
                // Each requester of an uncacheable list needs its own answer: no lock, no turn
                // after the others (before, replicas fetched one lock holder at a time).
                if let holder, try await redis.isUnshared(key, owner: holder) { return .filled(try await fill()) }
                if let holder, let recorded = try await redis.failure(key, owner: holder) {
                    let failure = FillFailure(recorded)
                    // The upstream's own error answer is passed back here as on the filler.
                    if let answer = failure.answer { return .filled(.upstream(answer)) }
                    throw FolioError.upstreamFailed("Another replica's fill of this list failed: \(failure.detail)")
                }
            } catch let error as RedisError {
                health.failed(.lock, error)
                break
            }
        }
        return .filled(try await fill())
    }

    /// Runs the fill while holding the lock. The store's `install` (called inside `fill`)
    /// starts copying the list to Redis; this replica's requesters are answered at once, and the
    /// lock is released once the copy is written and announced.
    private func lead(
        _ key: CacheKey, owner: String, hash: String, fill: @Sendable () async throws -> FillResult
    ) async throws -> CoordinatedFill {
        let result: FillResult
        do {
            result = try await fill()
        } catch {
            await release(key, owner: owner, hash: hash, failure: FillFailure(detail: FolioError.mapping(error).detail))
            throw error
        }
        let failure: FillFailure?
        switch result {
        case .upstream(let answer): failure = FillFailure(answer)
        case .uncacheable, .unstored, .stored, .revalidated, .shared: failure = nil
        }
        // Nothing shared after an uncacheable or unstored list: every waiter fills for itself,
        // at once.
        let unshared: Bool =
            switch result {
            case .uncacheable, .unstored: true
            default: false
            }
        let write = takeWrite(key)
        Task {
            await write?.value
            await release(key, owner: owner, hash: hash, failure: failure, unshared: unshared)
        }
        return .filled(result)
    }

    private func release(
        _ key: CacheKey, owner: String, hash: String, failure: FillFailure?, unshared: Bool = false
    ) async {
        do {
            if let failure {
                try await redis.recordFailure(key, owner: owner, failure: failure.encoded, expiry: .seconds(10))
            }
            if unshared { try await redis.recordUnshared(key, owner: owner, expiry: .seconds(10)) }
            try await redis.unlock(key, owner: owner)
        } catch {
            health.failed(.lock, error)
        }
        // Wakes the waiters at once instead of at their next look.
        await announce(SharedStoreEvent(kind: .failed, origin: origin, key: hash))
    }

    /// A fresh list stored since `before` was read, loaded; nil when there is none or Redis
    /// failed (then the lock holder fills).
    private func storedMeanwhile(_ key: CacheKey, before: Newest?, shape: RouteShape) async -> Snapshot? {
        do {
            guard let generation = loadGeneration(key.route), let after = try await newest(key), after != before,
                isFresh(after)
            else { return nil }
            return try await adopt(after, key: key, shape: shape, since: generation)
        } catch {
            health.failed(.read, error)
            return nil
        }
    }

    func newest(_ key: CacheKey) async throws(RedisError) -> Newest? {
        guard let token = try await redis.newestToken(for: key) else { return nil }
        guard let freshness = try await redis.freshness(key, token: token) else {
            // A record that is there but refused (changed, not Folio's) is a failed check,
            // logged and counted like changed parts (SPEC 5.5); one that is gone is a miss.
            if try await redis.holdsRecord(key, token: token) { refused(key, token: token) }
            return nil
        }
        return Newest(token: token, freshness: freshness)
    }

    /// Logs and counts a shared snapshot that failed its check (SPEC 5.5).
    func refused(_ key: CacheKey, token: String) {
        health.failed(.verify, nil)
        logger.warning(
            "shared snapshot failed its check", metadata: ["folio.route": "\(key.route)", "token": "\(token)"])
    }

    func isFresh(_ newest: Newest) -> Bool {
        newest.freshness.storedAtMilliseconds + newest.freshness.lifetimeMilliseconds > wallClock()
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
        guard dropGeneration(key.route) == generation else { return nil }
        if let held = local.current(key) {
            if held.token == newest.token {
                let renewed = snapshot(held, renewedBy: newest.freshness)
                guard renewed.freshUntil > held.freshUntil else { return held }
                return installLoaded(renewed, for: key, shape: shape, since: generation) ? renewed : nil
            }
            guard freshUntil(newest.freshness) > held.freshUntil else { return nil }
        } else if let kept = local.retained(key, token: newest.token)?.snapshot {
            // The same list (its token is its content's hash), retained here since a lost
            // subscription made every copy retained: Redis still names it, so it is current
            // again, with Redis's freshness, without reading its bytes back.
            let renewed = snapshot(kept, renewedBy: newest.freshness)
            return installLoaded(renewed, for: key, shape: shape, since: generation) ? renewed : nil
        }
        guard let stored = try await redis.read(key, token: newest.token) else {
            refused(key, token: newest.token)
            // Its keys go, so the fill that follows writes the list whole instead of only
            // renewing the expiry of a bad part (a refill of the same list has the same token).
            try? await redis.supersede(
                RedisSnapshotKeys.hash(key), token: newest.token, retention: .zero, atMilliseconds: wallClock())
            return nil
        }
        // Its route order and search columns are built on the fill workers, as a fill's are.
        let snapshot = await FillWorkers.shared.run { [self] in self.snapshot(stored, shape: shape) }
        return installLoaded(snapshot, for: key, shape: shape, since: generation) ? snapshot : nil
    }
}

/// Why a replica's fill failed, as it records it for the replicas that waited: the error's
/// text, and when the upstream answered with an error, that answer (status, end-to-end headers,
/// capped body), which the waiters pass back as the filler does (SPEC 3.5, 5.5).
struct FillFailure: Codable, Equatable {
    var detail: String
    var status: Int?
    var headers: [[String]]?
    var body: Data?

    init(detail: String) {
        self.detail = detail
    }

    init(_ answer: UpstreamAnswer) {
        detail = "the upstream answered \(answer.status)"
        status = answer.status
        headers = answer.headers.map { [$0.name, $0.value] }
        body = Data(answer.body)
    }

    /// A record as `encoded` wrote it; any other bytes (an older replica's plain text) are
    /// the detail.
    init(_ recorded: [UInt8]) {
        self =
            (try? JSONDecoder().decode(FillFailure.self, from: Data(recorded)))
            ?? FillFailure(detail: String(decoding: recorded, as: UTF8.self))
    }

    var encoded: [UInt8] { Array((try? JSONEncoder().encode(self)) ?? Data(detail.utf8)) }

    /// The upstream's error answer, when that was the failure.
    var answer: UpstreamAnswer? {
        guard let status else { return nil }
        let pairs = (headers ?? []).compactMap { $0.count == 2 ? (name: $0[0], value: $0[1]) : nil }
        return UpstreamAnswer(status: status, headers: pairs, body: Array(body ?? Data()))
    }
}
