import FolioEngine
import FolioRedis
import FolioRedisStore
import FolioTestSupport
import Testing

/// Snapshots written by one replica and read by another through a real `redis-server`; the
/// codec's integrity check on its own.
@Suite("Snapshots shared through Redis")
struct RedisSnapshotsTests {
    static let key = CacheKey(
        route: "objects", upstreamURL: "http://upstream.test/objects?secret=s3cr3t", varyValues: ["en"])

    /// A list of `count` elements as a fill would have indexed it.
    static func stored(_ count: Int, tag: String = "v1") throws -> StoredList {
        let body =
            "[" + (0..<count).map { #"{"id":\#($0),"name":"item \#($0) \#(tag)","n":1.50}"# }.joined(separator: ", ")
            + "]"
        var indexer = ListIndexer(items: .root, limits: IndexLimits(), sort: ["name"])
        try indexer.append(Array(body.utf8))
        _ = try indexer.endBody()
        let (list, token) = try indexer.finish()
        return StoredList(
            list: list, token: token, sort: ["name"], storedAtMilliseconds: 1_764_000_000_000,
            lifetimeMilliseconds: 60_000, etag: #""e1""#, lastModified: nil, mustRevalidate: true)
    }

    static func elements(_ list: ItemList) -> [[UInt8]] { (0..<list.count).map(list.element) }

    @Test func theCodecRoundTripsThroughManyPartsAndRefusesAnyChange() throws {
        let stored = try Self.stored(50)
        let (meta, parts) = RedisSnapshotCodec.encode(stored, partBytes: 100)
        #expect(parts.count > 10)
        let decoded = try #require(RedisSnapshotCodec.decode(meta: meta, parts: parts))
        #expect(decoded.token == stored.token)
        #expect(Self.elements(decoded.list) == Self.elements(stored.list))
        #expect(decoded.etag == stored.etag && decoded.mustRevalidate && decoded.lifetimeMilliseconds == 60_000)

        var flipped = parts
        flipped[3][7] = flipped[3][7] == UInt8(ascii: "1") ? UInt8(ascii: "2") : UInt8(ascii: "1")
        #expect(RedisSnapshotCodec.decode(meta: meta, parts: flipped) == nil, "a changed byte changes the token")
        var missing: [[UInt8]?] = parts
        missing[5] = nil
        #expect(RedisSnapshotCodec.decode(meta: meta, parts: missing) == nil)
        #expect(RedisSnapshotCodec.decode(meta: meta, parts: Array(parts.dropLast())) == nil)
        #expect(RedisSnapshotCodec.decode(meta: Array("{}".utf8), parts: parts) == nil)
    }

    @Test func anotherReplicaReadsWhatOneWrote() async throws {
        try await RedisServer.with { server in
            let writer = RedisSnapshots(
                client: RedisClient(server.configuration()), keys: RedisSnapshotKeys(prefix: "folio:"))
            let reader = RedisSnapshots(
                client: RedisClient(server.configuration()), keys: RedisSnapshotKeys(prefix: "folio:"))
            let stored = try Self.stored(2_000)
            try await writer.write(stored, for: Self.key, expiry: .seconds(90), retention: .seconds(60))

            let token = try #require(try await reader.newestToken(for: Self.key))
            #expect(token == stored.token)
            let read = try #require(try await reader.read(token: token))
            #expect(Self.elements(read.list) == Self.elements(stored.list))
            #expect(read.storedAtMilliseconds == stored.storedAtMilliseconds && read.etag == stored.etag)
            #expect(try await reader.read(token: "not-a-token") == nil)
            await writer.client.close()
            await reader.client.close()
        }
    }

    @Test func everyKeyExpiresAndNoneNamesTheUpstreamURL() async throws {
        try await RedisServer.with { server in
            let client = RedisClient(server.configuration())
            let snapshots = RedisSnapshots(client: client, keys: RedisSnapshotKeys(prefix: "folio:"))
            try await snapshots.write(try Self.stored(10), for: Self.key, expiry: .seconds(90), retention: .seconds(60))
            let keys = try await client.send(["KEYS", "*"])
            guard case .array(let names?) = keys else {
                Issue.record("KEYS gave \(keys)")
                return
            }
            #expect(names.count == 4, "one part, the metadata, the pointer, the route's set of pointers")
            for name in names.compactMap(\.string) {
                #expect(name.hasPrefix("folio:"))
                #expect(!name.contains("upstream.test") && !name.contains("s3cr3t"), "\(name)")
                let ttl = try #require(try await client.send(["PTTL", name]).integer)
                #expect(ttl > 0 && ttl <= 90_000, "\(name) expires")
            }
            await client.close()
        }
    }

    @Test func aPartChangedInRedisIsNeverRead() async throws {
        try await RedisServer.with { server in
            let client = RedisClient(server.configuration())
            let keys = RedisSnapshotKeys(prefix: "folio:")
            let snapshots = RedisSnapshots(client: client, keys: keys)
            let stored = try Self.stored(10)
            try await snapshots.write(stored, for: Self.key, expiry: .seconds(90), retention: .seconds(60))
            #expect(try await snapshots.read(token: stored.token) != nil)
            let part = try #require(try await client.send(["GET", keys.part(token: stored.token, index: 0)]).string)
            try await client.send([
                "SET", keys.part(token: stored.token, index: 0),
                part.replacingOccurrences(of: "item 3", with: "item 4"),
            ])
            #expect(try await snapshots.read(token: stored.token) == nil)
            try await client.send(["DEL", keys.part(token: stored.token, index: 0)])
            #expect(try await snapshots.read(token: stored.token) == nil)
            await client.close()
        }
    }
}
