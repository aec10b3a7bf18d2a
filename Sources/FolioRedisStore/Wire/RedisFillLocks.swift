import FolioEngine
import FolioRedis

/// The one-fill-for-all-replicas lock of each cache key (docs/SHARED-STORE.md, "One fill for
/// all replicas"), and what a fill that held it tells the replicas that waited.
public struct RedisFillLocks: Sendable {
    public let client: any RedisCommands
    public let keys: RedisSnapshotKeys

    public init(client: any RedisCommands, keys: RedisSnapshotKeys) {
        self.client = client
        self.keys = keys
    }

    /// Takes `key`'s fill lock for `expiry` (a short lease, renewed with `renew` while the fill
    /// works) under `owner`, unless another replica holds it.
    public func lock(_ key: CacheKey, owner: String, expiry: Duration) async throws(RedisError) -> Bool {
        let reply = try await client.send([
            "SET", keys.lock(key), owner, "NX", "PX", String(RedisSnapshots.milliseconds(expiry)),
        ])
        return !reply.isNull
    }

    /// Releases `key`'s fill lock if `owner` still holds it (it may have expired and been taken
    /// by another replica meanwhile: compare-and-delete, in one script).
    public func unlock(_ key: CacheKey, owner: String) async throws(RedisError) {
        try await client.send(["EVAL", Self.unlockScript, "1", keys.lock(key), owner])
    }

    /// Extends `key`'s fill lock to `expiry` from now if `owner` still holds it, or takes it
    /// again if nobody does (a renewal a stalled process sent late: no other replica took over,
    /// so the fill that is still running keeps the key); whether `owner` holds it now.
    public func renew(_ key: CacheKey, owner: String, expiry: Duration) async throws(RedisError) -> Bool {
        try await client.send([
            "EVAL", Self.renewScript, "1", keys.lock(key), owner, String(RedisSnapshots.milliseconds(expiry)),
        ]).integer == 1
    }

    static let renewScript = """
        local holder = redis.call('GET', KEYS[1])
        if holder == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
        if not holder then
            redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
            return 1
        end
        return 0
        """

    static let unlockScript = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
        return 0
        """

    /// Who holds `key`'s fill lock now, if anyone.
    public func lockOwner(_ key: CacheKey) async throws(RedisError) -> String? {
        try await client.send(["GET", keys.lock(key)]).string
    }

    /// Records why `owner`'s fill of `key` failed, for `expiry`, so the replicas that waited
    /// for it answer with its error instead of each fetching in turn.
    public func recordFailure(_ key: CacheKey, owner: String, failure: [UInt8], expiry: Duration)
        async throws(RedisError)
    {
        try await client.send(
            [Array("SET".utf8), Array(keys.failure(key).utf8), Array("\(owner)\n".utf8) + failure]
                + ["PX", String(RedisSnapshots.milliseconds(expiry))].bytes)
    }

    /// The failure `owner`'s fill of `key` recorded, if it did.
    public func failure(_ key: CacheKey, owner: String) async throws(RedisError) -> [UInt8]? {
        guard let value = try await client.send(["GET", keys.failure(key)]).bytes,
            let newline = value.firstIndex(of: UInt8(ascii: "\n")),
            value[..<newline].elementsEqual(owner.utf8)
        else { return nil }
        return Array(value[(newline + 1)...])
    }

    /// Records that `owner`'s fill of `key` got an answer that may not be shared, for `expiry`:
    /// the replicas that waited for it fetch their own at once instead of taking the lock in
    /// turn.
    public func recordUnshared(_ key: CacheKey, owner: String, expiry: Duration) async throws(RedisError) {
        try await client.send(["SET", keys.unshared(key), owner, "PX", String(RedisSnapshots.milliseconds(expiry))])
    }

    /// Whether `owner`'s fill of `key` recorded an answer that may not be shared.
    public func isUnshared(_ key: CacheKey, owner: String) async throws(RedisError) -> Bool {
        try await client.send(["GET", keys.unshared(key)]).string == owner
    }
}
