import FolioEngine
import FolioRedis

/// Snapshots shared through Redis: written by the replica that filled them, read by any other.
///
/// A write puts the parts, then the metadata, then the cache key's pointer to the newest token,
/// so a reader that finds the pointer finds a whole snapshot (or, if a part expired or was torn,
/// one that fails its token check and counts as absent). Every key gets an expiry: a current
/// snapshot's lasts as long as it can be served, a superseded one's `snapshotRetention`.
public struct RedisSnapshots: Sendable {
    public let client: any RedisCommands
    public let keys: RedisSnapshotKeys
    /// Parts sent in one round trip (a pipeline): 4 × 4 MiB keeps one batch well inside a
    /// command timeout while saving a round trip per part.
    static let partsPerBatch = 4

    public init(client: any RedisCommands, keys: RedisSnapshotKeys) {
        self.client = client
        self.keys = keys
    }

    /// The drops of routes (`RedisRouteDrops`), through the same client.
    public var drops: RedisRouteDrops { RedisRouteDrops(client: client, keys: keys) }

    /// The fill locks of cache keys (`RedisFillLocks`), through the same client.
    public var locks: RedisFillLocks { RedisFillLocks(client: client, keys: keys) }

    /// Tells every replica (subscribed to `keys.events`) about `payload`.
    public func publish(_ payload: [UInt8]) async throws(RedisError) {
        try await client.publish(keys.events, payload)
    }

    /// Writes `stored` and makes it `key`'s newest snapshot; its keys expire after `expiry`. A
    /// snapshot Redis already holds (a revalidation, or the same list filled again) gets new
    /// metadata and expiries without its parts being sent again. The token it replaces keeps
    /// answering pinned links for `retention`.
    ///
    /// With `dropGeneration` (the route's `RedisRouteDrops.dropGeneration(route:)` read before
    /// the list was fetched), the list becomes newest only if no drop of the route came since: a drop that reached Redis
    /// while it was fetched or written removed what it holds. Returns whether it became newest
    /// (a drop seen before the parts are sent saves sending them; one that came later leaves
    /// them written, to expire).
    @discardableResult
    public func write(
        _ stored: StoredList, for key: CacheKey, expiry: Duration, retention: Duration, dropGeneration: Int64? = nil
    ) async throws(RedisError) -> Bool {
        let milliseconds = Array(String(Self.milliseconds(expiry)).utf8)
        let (meta, parts) = RedisSnapshotCodec.encode(stored)
        let owner = RedisSnapshotKeys.hash(key)
        // What Redis holds of this list, and the route's drop generation, in one round trip. The
        // generation is checked again, atomically, when the pointer moves; this check saves
        // sending the parts.
        let looks = try await client.pipeline([
            ["GET", keys.meta(owner, token: stored.token)].bytes, ["GET", keys.dropGeneration(key.route)].bytes,
        ])
        guard looks.count == 2 else { throw RedisError.unexpectedReply("\(looks)") }
        if let dropGeneration, try RedisRouteDrops.dropGeneration(looks[1]) != dropGeneration { return false }
        let held = Self.header(looks[0], token: stored.token)
        var commands: [[[UInt8]]] = []
        if let held, held.parts == parts.count {
            for index in 0..<parts.count {
                commands.append(
                    ["PEXPIRE", keys.part(owner, token: stored.token, index: index)].bytes + [milliseconds])
            }
        } else {
            for (index, part) in parts.enumerated() {
                commands.append(
                    [Array("SET".utf8), Array(keys.part(owner, token: stored.token, index: index).utf8), part]
                        + ["PX"].bytes + [milliseconds])
            }
        }
        commands.append(
            [Array("SET".utf8), Array(keys.meta(owner, token: stored.token).utf8), meta] + ["PX"].bytes
                + [milliseconds])
        commands.append(["DEL", keys.superseded(owner, token: stored.token)].bytes)
        for batch in stride(from: 0, to: commands.count, by: Self.partsPerBatch) {
            try Self.check(
                try await client.pipeline(Array(commands[batch..<min(batch + Self.partsPerBatch, commands.count)])))
        }
        let reply = try await client.send(
            [
                "EVAL", Self.pointScript, "3", keys.newest(key), keys.routeKeys(key.route),
                keys.dropGeneration(key.route), stored.token, String(Self.milliseconds(expiry)),
                dropGeneration.map { String($0) } ?? "",
            ]
        )
        guard case .array(let values?) = reply, let pointed = values.first?.integer else {
            throw RedisError.unexpectedReply("\(reply)")
        }
        guard pointed == 1 else { return false }
        if let previous = values.dropFirst().first?.string, previous != stored.token {
            try await supersede(
                key, token: previous, retention: retention, atMilliseconds: stored.storedAtMilliseconds)
        }
        return true
    }

    /// Unless `ARGV[3]` is set and differs from the route's drop generation `KEYS[3]` (then returns
    /// `{0}`): points `KEYS[1]` (a newest key) at `ARGV[1]` for `ARGV[2]` ms, scores it in the
    /// route's sorted set `KEYS[2]` by when it expires (Redis's clock), and returns `{1, token
    /// pointed at before}`. The set holds the route's live pointers only: each write removes at
    /// most `trimPerWrite` members whose pointer has expired, so the set stays within the live
    /// pointers plus what expired since the last writes, and the script's work is bounded.
    static let pointScript = """
        if ARGV[3] ~= '' and (redis.call('GET', KEYS[3]) or '0') ~= ARGV[3] then return {0} end
        local time = redis.call('TIME')
        local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
        local old = redis.call('GET', KEYS[1])
        redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
        redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), KEYS[1])
        local dead = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, \(trimPerWrite))
        if #dead > 0 then redis.call('ZREM', KEYS[2], unpack(dead)) end
        if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
        return {1, old}
        """

    /// Expired members a write removes from its route's set at most: more than the one it adds,
    /// so expired members never pile up, and few enough to keep the script short.
    static let trimPerWrite = 16

    /// The newest token Redis holds for `key`, if any.
    public func newestToken(for key: CacheKey) async throws(RedisError) -> String? {
        try await client.send(["GET", keys.newest(key)]).string
    }

    /// The freshness of `key`'s snapshot with `token` as its filler last stored it, without its
    /// parts (a replica holding the same list renews its own copy).
    public func freshness(_ key: CacheKey, token: String) async throws(RedisError) -> StoredFreshness? {
        let meta = try await client.send(["GET", keys.meta(RedisSnapshotKeys.hash(key), token: token)]).bytes
        guard let meta else { return nil }
        return RedisSnapshotCodec.freshness(meta, token: token)
    }

    /// Whether Redis holds a metadata record for `key`'s snapshot with `token`, usable or not:
    /// tells a record that is gone from one that was refused (changed, not Folio's).
    public func holdsRecord(_ key: CacheKey, token: String) async throws(RedisError) -> Bool {
        try await client.send(["EXISTS", keys.meta(RedisSnapshotKeys.hash(key), token: token)]).integer == 1
    }

    /// `key`'s snapshot with `token`, or nil when Redis does not hold all of it for that key or
    /// it fails its token check. Parts come in batches of `partsPerBatch`, the next batch on
    /// its way while the current one is indexed.
    public func read(_ key: CacheKey, token: String) async throws(RedisError) -> StoredList? {
        try await read(key, token: token, admitting: { _ in })
    }

    /// `read`, calling `admit` with the size of the list its metadata claims before anything
    /// is allocated for it (the loader counts loads in flight against the local bound).
    func read(
        _ key: CacheKey, token: String, admitting admit: (Int) async -> Void
    ) async throws(RedisError) -> StoredList? {
        let owner = RedisSnapshotKeys.hash(key)
        guard let meta = try await client.send(["GET", keys.meta(owner, token: token)]).bytes,
            let bytes = RedisSnapshotCodec.listBytes(meta)
        else { return nil }
        await admit(bytes)
        guard var decoder = RedisSnapshotCodec.Decoder(meta: meta),
            decoder.token == token
        else { return nil }
        let batches = stride(from: 0, to: decoder.parts, by: Self.partsPerBatch).map {
            Array($0..<min($0 + Self.partsPerBatch, decoder.parts))
        }
        var next = batches.first.map { fetch($0, owner: owner, token: token) }
        for index in batches.indices {
            let parts = try await next!.value.get()
            next = index + 1 < batches.count ? fetch(batches[index + 1], owner: owner, token: token) : nil
            for part in parts {
                guard let part, await decoder.append(part) else {
                    next?.cancel()
                    return nil
                }
            }
        }
        return await decoder.finish()
    }

    /// Starts fetching the parts numbered `indexes` of `token` (nil for a missing part).
    private func fetch(_ indexes: [Int], owner: String, token: String) -> Task<Result<[[UInt8]?], RedisError>, Never> {
        let commands = indexes.map { ["GET", keys.part(owner, token: token, index: $0)].bytes }
        let client = self.client
        return Task {
            do throws(RedisError) {
                return .success(try await client.pipeline(commands).map(\.bytes))
            } catch {
                return .failure(error)
            }
        }
    }

    /// When `key`'s snapshot with `token` was superseded (wall-clock milliseconds) and how long
    /// it is still kept, or nil when it was never superseded (it may be the key's newest).
    public func superseded(_ key: CacheKey, token: String) async throws(RedisError) -> (
        atMilliseconds: Int64, left: Duration
    )? {
        let name = keys.superseded(RedisSnapshotKeys.hash(key), token: token)
        let replies = try await client.pipeline([["GET", name].bytes, ["PTTL", name].bytes])
        guard let at = replies[0].string.flatMap({ Int64($0) }), let left = replies[1].integer, left > 0 else {
            return nil
        }
        return (at, .milliseconds(left))
    }

    /// The header of the metadata record `reply` (a `GET`'s answer), when it is `token`'s.
    static func header(
        _ reply: RESPValue, token: String
    ) -> (token: String, parts: Int, storedAtMilliseconds: Int64)? {
        guard let meta = reply.bytes, let header = RedisSnapshotCodec.header(meta), header.token == token else {
            return nil
        }
        return header
    }

    /// Whole milliseconds, at least 1 (Redis refuses an expiry of 0).
    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }

    /// Throws the first error answer of a pipeline, as a server error: Redis refused a command
    /// (`-OOM` when it is full), which says nothing against the connection.
    static func check(_ replies: [RESPValue]) throws(RedisError) {
        for reply in replies {
            if case .error(let message) = reply { throw RedisError.refused("-\(message)") }
        }
    }
}

extension Array where Element == String {
    /// Command arguments as bytes.
    var bytes: [[UInt8]] { map { [UInt8]($0.utf8) } }
}
