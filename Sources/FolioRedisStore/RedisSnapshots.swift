import FolioEngine
import FolioRedis

/// Snapshots shared through Redis: written by the replica that filled them, read by any other.
///
/// A write puts the parts, then the metadata, then the cache key's pointer to the newest token,
/// so a reader that finds the pointer finds a whole snapshot (or, if a part expired or was torn,
/// one that fails its token check and counts as absent). Every key gets an expiry.
public struct RedisSnapshots: Sendable {
    public let client: RedisClient
    public let keys: RedisSnapshotKeys

    public init(client: RedisClient, keys: RedisSnapshotKeys) {
        self.client = client
        self.keys = keys
    }

    /// Writes `stored` and makes it `key`'s newest snapshot; every key expires after `expiry`
    /// (a current snapshot: as long as it can still be served).
    public func write(_ stored: StoredList, for key: CacheKey, expiry: Duration) async throws(RedisError) {
        let milliseconds = String(
            max(1, expiry.components.seconds * 1000 + expiry.components.attoseconds / 1_000_000_000_000_000))
        let (meta, parts) = RedisSnapshotCodec.encode(stored)
        for (index, part) in parts.enumerated() {
            try await expectOK(
                client.send([
                    Array("SET".utf8), Array(keys.part(token: stored.token, index: index).utf8), part,
                    Array("PX".utf8), Array(milliseconds.utf8),
                ]))
        }
        try await expectOK(
            client.send([
                Array("SET".utf8), Array(keys.meta(token: stored.token).utf8), meta, Array("PX".utf8),
                Array(milliseconds.utf8),
            ]))
        try await expectOK(client.send(["SET", keys.newest(key), stored.token, "PX", milliseconds]))
    }

    /// The newest token Redis holds for `key`, if any.
    public func newestToken(for key: CacheKey) async throws(RedisError) -> String? {
        try await client.send(["GET", keys.newest(key)]).string
    }

    /// The snapshot with `token`, or nil when Redis does not hold all of it or it fails its
    /// token check.
    public func read(token: String) async throws(RedisError) -> StoredList? {
        guard let meta = try await client.send(["GET", keys.meta(token: token)]).bytes,
            let header = RedisSnapshotCodec.header(meta), header.token == token, header.parts >= 0
        else { return nil }
        var parts: [[UInt8]?] = []
        parts.reserveCapacity(header.parts)
        for index in 0..<header.parts {
            parts.append(try await client.send(["GET", keys.part(token: token, index: index)]).bytes)
        }
        return RedisSnapshotCodec.decode(meta: meta, parts: parts)
    }

    private func expectOK(_ reply: RESPValue) throws(RedisError) {
        guard case .simpleString = reply else { throw RedisError.unexpectedReply("\(reply)") }
    }
}
