import FolioEngine
import FolioRedis

/// A route's drops in Redis (docs/SHARED-STORE.md, "Drops reach every replica"): its shared
/// drop generation, which every drop moves and a fill's write checks, and the drop itself,
/// which removes the newest pointer of every key of the route.
public struct RedisRouteDrops: Sendable {
    public let client: RedisClient
    public let keys: RedisSnapshotKeys

    public init(client: RedisClient, keys: RedisSnapshotKeys) {
        self.client = client
        self.keys = keys
    }

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
    static func dropGeneration(_ reply: RESPValue) throws(RedisError) -> Int64 {
        guard let text = reply.string else { return 0 }
        guard let generation = Int64(text) else { throw RedisError.unexpectedReply(text) }
        return generation
    }

    /// Removes the newest pointer of every key of `route` (a purge, an unsafe method's 2xx) and
    /// moves its drop generation; returns the snapshots they pointed at, for `retire`.
    /// One round trip: once it returns, no replica loads the route's dropped lists as newest.
    public func dropPointers(route: String) async throws(RedisError) -> [RedisSnapshots.RetiredSnapshot] {
        let reply = try await client.send([
            "EVAL", Self.dropScript, "2", keys.routeKeys(route), keys.dropGeneration(route),
            String(RedisSnapshots.milliseconds(Self.dropGenerationExpiry)),
        ])
        guard case .array(let values?) = reply, values.count.isMultiple(of: 2) else {
            throw RedisError.unexpectedReply("\(reply)")
        }
        return stride(from: 0, to: values.count, by: 2).compactMap { pair in
            guard let name = values[pair].string, let token = values[pair + 1].string,
                let owner = keys.keyHash(ofNewest: name)
            else { return nil }
            return RedisSnapshots.RetiredSnapshot(keyHash: owner, token: token)
        }
    }

    /// `dropPointers`, then `retire` of what they pointed at: the snapshots keep answering
    /// pinned links for `retention`.
    public func drop(route: String, retention: Duration, atMilliseconds now: Int64) async throws(RedisError) {
        try await RedisSnapshots(client: client, keys: keys).retire(
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
}
