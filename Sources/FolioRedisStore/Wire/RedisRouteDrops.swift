import FolioEngine
import FolioRedis
import Foundation

/// A route's drops in Redis (docs/SHARED-STORE.md, "Drops reach every replica"): its shared
/// drop generation, which every drop moves and a fill's write checks, and the drop itself,
/// which removes the newest pointer of every key of the route.
public struct RedisRouteDrops: Sendable {
    public let client: any RedisCommands
    public let keys: RedisSnapshotKeys

    public init(client: any RedisCommands, keys: RedisSnapshotKeys) {
        self.client = client
        self.keys = keys
    }

    /// `route`'s shared drop generation: how many times it was dropped by any replica (the
    /// count's expiry aside). Read before a fill fetches, passed to `write`.
    public func dropGeneration(route: String) async throws(RedisError) -> Int64 {
        try Self.dropGeneration(try await client.send(["GET", keys.dropGeneration(route)]))
    }

    /// The shared drop generations of `routes`, in their order, in one round trip (a pipeline of
    /// `GET`s: each route's generation has its own hash tag, so one `MGET` would span slots).
    public func dropGenerations(routes: [String]) async throws(RedisError) -> [Int64] {
        guard !routes.isEmpty else { return [] }
        let values = try await client.pipeline(routes.map { ["GET", keys.dropGeneration($0)].bytes })
        guard values.count == routes.count else { throw RedisError.unexpectedReply("\(values.count) replies") }
        try RedisSnapshots.check(values)
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
    ///
    /// The first script moves the generation and takes the route's set of live pointers aside
    /// (a rename: fills that point after it start a new set), then each script deletes at most
    /// `pointersPerScript` of the pointers taken, so no script blocks Redis for long however
    /// many keys the route has. Once it returns, no replica loads the route's dropped lists as
    /// newest; fills that read the generation before it never point at theirs.
    public func dropPointers(route: String) async throws(RedisError) -> [RedisSnapshots.RetiredSnapshot] {
        let drain = keys.routeDrain(route, drop: UUID().uuidString)
        var retired: [RedisSnapshots.RetiredSnapshot] = []
        var first = true
        while true {
            let reply = try await client.send([
                "EVAL", Self.dropScript, "3", keys.routeKeys(route), keys.dropGeneration(route), drain,
                String(RedisSnapshots.milliseconds(Self.dropGenerationExpiry)), first ? "1" : "0",
                String(Self.pointersPerScript),
            ])
            first = false
            guard case .array(let values?) = reply, let more = values.first?.integer,
                values.count % 2 == 1
            else {
                throw RedisError.unexpectedReply("\(reply)")
            }
            for pair in stride(from: 1, to: values.count, by: 2) {
                guard let name = values[pair].string, let token = values[pair + 1].string,
                    let owner = keys.keyHash(ofNewest: name, route: route)
                else { continue }
                retired.append(RedisSnapshots.RetiredSnapshot(route: route, keyHash: owner, token: token))
            }
            if more == 0 { return retired }
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

    /// Pointers one drop script deletes at most: a few hundred small keys, well under a
    /// millisecond of Redis's time.
    static let pointersPerScript = 256

    /// With `ARGV[2]` = 1 (a drop's first script): moves the drop generation `KEYS[2]` (expiring
    /// after `ARGV[1]` ms) and renames the route's set `KEYS[1]` to the drop's own `KEYS[3]`.
    /// Then deletes up to `ARGV[3]` of the newest keys in `KEYS[3]` (sparing those a fill pointed
    /// again since: they are in the new `KEYS[1]`) and takes them out of it;
    /// returns whether any are left (1 or 0), then each deleted key's name and token, in turn.
    static let dropScript = """
        if ARGV[2] == '1' then
            redis.call('INCR', KEYS[2])
            redis.call('PEXPIRE', KEYS[2], ARGV[1])
            if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('RENAME', KEYS[1], KEYS[3]) end
        end
        local names = redis.call('ZRANGE', KEYS[3], 0, tonumber(ARGV[3]) - 1)
        local reply = {0}
        for _, name in ipairs(names) do
            if not redis.call('ZSCORE', KEYS[1], name) then
                local token = redis.call('GET', name)
                if token then
                    table.insert(reply, name)
                    table.insert(reply, token)
                end
                redis.call('DEL', name)
            end
        end
        if #names > 0 then redis.call('ZREM', KEYS[3], unpack(names)) end
        if redis.call('EXISTS', KEYS[3]) == 1 then reply[1] = 1 end
        return reply
        """
}
