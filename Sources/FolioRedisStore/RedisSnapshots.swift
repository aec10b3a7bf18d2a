import FolioEngine
import FolioRedis

/// Snapshots shared through Redis: written by the replica that filled them, read by any other.
///
/// A write puts the parts, then the metadata, then the cache key's pointer to the newest token,
/// so a reader that finds the pointer finds a whole snapshot (or, if a part expired or was torn,
/// one that fails its token check and counts as absent). Every key gets an expiry: a current
/// snapshot's lasts as long as it can be served, a superseded one's `snapshotRetention`.
public struct RedisSnapshots: Sendable {
    public let client: RedisClient
    public let keys: RedisSnapshotKeys
    /// Parts sent in one round trip (a pipeline): 4 × 4 MiB keeps one batch well inside a
    /// command timeout while saving a round trip per part.
    static let partsPerBatch = 4

    public init(client: RedisClient, keys: RedisSnapshotKeys) {
        self.client = client
        self.keys = keys
    }

    /// Writes `stored` and makes it `key`'s newest snapshot; its keys expire after `expiry`. A
    /// snapshot Redis already holds (a revalidation, or the same list filled again) gets new
    /// metadata and expiries without its parts being sent again. The token it replaces keeps
    /// answering pinned links for `retention`.
    ///
    /// With `dropGeneration` (the route's `dropGeneration(route:)` read before the list was
    /// fetched), the list becomes newest only if no drop of the route came since: a drop that reached Redis
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
        if let dropGeneration, try Self.dropGeneration(looks[1]) != dropGeneration { return false }
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
                owner, token: previous, retention: retention, atMilliseconds: stored.storedAtMilliseconds)
        }
        return true
    }

    /// Unless `ARGV[3]` is set and differs from the route's drop generation `KEYS[3]` (then returns
    /// `{0}`): points `KEYS[1]` (a newest key) at `ARGV[1]` for `ARGV[2]` ms, remembers it in the
    /// route's set `KEYS[2]` (whose expiry only grows), and returns `{1, token pointed at before}`.
    static let pointScript = """
        if ARGV[3] ~= '' and (redis.call('GET', KEYS[3]) or '0') ~= ARGV[3] then return {0} end
        local old = redis.call('GET', KEYS[1])
        redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
        redis.call('SADD', KEYS[2], KEYS[1])
        if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
        return {1, old}
        """

    /// `route`'s shared drop generation: how many times it was dropped by any replica (the
    /// count's expiry aside). Read before a fill fetches, passed to `write`.
    public func dropGeneration(route: String) async throws(RedisError) -> Int64 {
        try Self.dropGeneration(try await client.send(["GET", keys.dropGeneration(route)]))
    }

    /// The shared drop generations of `routes`, in their order, in one round trip (`MGET`).
    public func dropGenerations(routes: [String]) async throws(RedisError) -> [Int64] {
        guard !routes.isEmpty else { return [] }
        let reply = try await client.send(["MGET"] + routes.map { keys.dropGeneration($0) })
        guard case .array(let values?) = reply, values.count == routes.count else {
            throw RedisError.unexpectedReply("MGET answered \(reply)")
        }
        var generations: [Int64] = []
        for value in values { generations.append(try Self.dropGeneration(value)) }
        return generations
    }

    /// A drop generation as `GET` answers it (none yet: 0).
    private static func dropGeneration(_ reply: RESPValue) throws(RedisError) -> Int64 {
        guard let text = reply.string else { return 0 }
        guard let generation = Int64(text) else { throw RedisError.unexpectedReply(text) }
        return generation
    }

    /// Keeps the snapshot with `token` of the cache key hashed as `keyHash` for `retention` only
    /// (zero: deletes it), marking when it was superseded.
    public func supersede(
        _ keyHash: String, token: String, retention: Duration, atMilliseconds now: Int64
    ) async throws(RedisError) {
        try await retire([RetiredSnapshot(keyHash: keyHash, token: token)], retention: retention, atMilliseconds: now)
    }

    /// A snapshot no newest pointer names any more: its cache key's hash and its token.
    public struct RetiredSnapshot: Sendable, Equatable {
        public var keyHash: String
        public var token: String
    }

    /// Keeps each of `snapshots` for `retention` only (zero: deletes them), marking when they
    /// were superseded. Two round trips per `snapshotsPerBatch` of them: their headers, then
    /// their expiries. With `sparingRefilled`, a snapshot filled again since the drop is left
    /// alone: its key's newest pointer names it again, or its metadata says it was stored after
    /// `now` (it may have been superseded again since, with a retention of its own). A drop's
    /// retire runs after the drop is taken, and may be retried later, when a refill of the same
    /// list (the same token) may have made it newest again.
    public func retire(
        _ snapshots: [RetiredSnapshot], retention: Duration, atMilliseconds now: Int64, sparingRefilled: Bool = false
    ) async throws(RedisError) {
        let ms = String(Self.milliseconds(retention))
        for first in stride(from: 0, to: snapshots.count, by: Self.snapshotsPerBatch) {
            let batch = snapshots[first..<min(first + Self.snapshotsPerBatch, snapshots.count)]
            var reads: [[[UInt8]]] = []
            for snapshot in batch {
                reads.append(["GET", keys.meta(snapshot.keyHash, token: snapshot.token)].bytes)
                if sparingRefilled { reads.append(["GET", keys.newest(keyHash: snapshot.keyHash)].bytes) }
            }
            let replies = try await client.pipeline(reads)
            try Self.check(replies)
            guard replies.count == reads.count else { throw RedisError.unexpectedReply("\(replies.count) replies") }
            var commands: [[[UInt8]]] = []
            let looks = sparingRefilled ? 2 : 1
            for (index, snapshot) in batch.enumerated() {
                let (owner, token) = (snapshot.keyHash, snapshot.token)
                if sparingRefilled, replies[index * looks + 1].string == token { continue }
                guard let held = Self.header(replies[index * looks], token: token) else { continue }
                if sparingRefilled, held.storedAtMilliseconds > now { continue }
                let names =
                    (0..<held.parts).map { keys.part(owner, token: token, index: $0) } + [
                        keys.meta(owner, token: token)
                    ]
                if retention > .zero {
                    commands += names.map { ["PEXPIRE", $0, ms].bytes }
                    commands.append(["SET", keys.superseded(owner, token: token), String(now), "PX", ms].bytes)
                } else {
                    commands.append((["DEL"] + names + [keys.superseded(owner, token: token)]).bytes)
                }
            }
            if !commands.isEmpty { try Self.check(try await client.pipeline(commands)) }
        }
    }

    /// Snapshots `retire` handles per two round trips: a few hundred commands each way (a
    /// snapshot has a part per 4 MiB of its list, so a batch of large lists sends more).
    static let snapshotsPerBatch = 256

    /// Removes the newest pointer of every key of `route` (a purge, an unsafe method's 2xx) and
    /// moves its drop generation; returns the snapshots they pointed at, for `retire`.
    /// One round trip: once it returns, no replica loads the route's dropped lists as newest.
    public func dropPointers(route: String) async throws(RedisError) -> [RetiredSnapshot] {
        let reply = try await client.send([
            "EVAL", Self.dropScript, "2", keys.routeKeys(route), keys.dropGeneration(route),
            String(Self.milliseconds(Self.dropGenerationExpiry)),
        ])
        guard case .array(let values?) = reply, values.count.isMultiple(of: 2) else {
            throw RedisError.unexpectedReply("\(reply)")
        }
        return stride(from: 0, to: values.count, by: 2).compactMap { pair in
            guard let name = values[pair].string, let token = values[pair + 1].string,
                let owner = keys.keyHash(ofNewest: name)
            else { return nil }
            return RetiredSnapshot(keyHash: owner, token: token)
        }
    }

    /// `dropPointers`, then `retire` of what they pointed at: the snapshots keep answering
    /// pinned links for `retention`.
    public func drop(route: String, retention: Duration, atMilliseconds now: Int64) async throws(RedisError) {
        try await retire(
            try await dropPointers(route: route), retention: retention, atMilliseconds: now, sparingRefilled: true)
    }

    /// How long a route's drop generation outlives its last drop: far longer than any fill, so a
    /// fill never reads a generation that expires and counts up to the same value again before
    /// it writes.
    static let dropGenerationExpiry = Duration.seconds(7 * 24 * 3600)

    /// Moves the drop generation `KEYS[2]` (expiring after `ARGV[1]` ms), deletes every newest key listed
    /// in the set `KEYS[1]` and the set; returns each deleted key's name and token, in turn.
    static let dropScript = """
        redis.call('INCR', KEYS[2])
        redis.call('PEXPIRE', KEYS[2], ARGV[1])
        local pointed = {}
        for _, name in ipairs(redis.call('SMEMBERS', KEYS[1])) do
            local token = redis.call('GET', name)
            if token then
                table.insert(pointed, name)
                table.insert(pointed, token)
            end
            redis.call('DEL', name)
        end
        redis.call('DEL', KEYS[1])
        return pointed
        """

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
        let owner = RedisSnapshotKeys.hash(key)
        guard let meta = try await client.send(["GET", keys.meta(owner, token: token)]).bytes,
            var decoder = RedisSnapshotCodec.Decoder(meta: meta),
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
    private static func header(
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
