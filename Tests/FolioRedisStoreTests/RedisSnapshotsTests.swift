import FolioEngine
import FolioRedis
import FolioTestSupport
import Foundation
import Synchronization
import Testing

@testable import FolioRedisStore

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

    /// A wall-clock time after the lists of `stored` were stored: when a test's drops happen.
    static let dropAt: Int64 = 1_764_000_000_000 + 60_000

    /// Runs `body` with a client of a fresh `redis-server` and snapshots under `folio:`.
    static func withSnapshots(
        _ body: (RedisClient, RedisSnapshotKeys, RedisSnapshots) async throws -> Void
    ) async throws {
        try await RedisServer.with { server in
            let client = RedisClient(server.configuration())
            let keys = RedisSnapshotKeys(prefix: "folio:")
            try await body(client, keys, RedisSnapshots(client: client, keys: keys))
            await client.close()
        }
    }

    /// The token covers the parts' bytes, not the record's numbers: a record claiming parts,
    /// sizes or times no filler writes is refused before anything is built for it (a key name
    /// per claimed part, a batch list, a time that overflows).
    @Test(arguments: [
        ("parts", "1000000000000"), ("parts", "100000"), ("parts", "-1"), ("count", "1000000"),
        ("storedAt", "-9223372036854775808"), ("storedAt", "9223372036854775807"),
        ("lifetime", "9223372036854775807"), ("lifetime", "-5"), ("bytes", "99999999999999"),
    ])
    func aRecordWithNumbersNoFillerWritesIsRefused(field: String, value: String) async throws {
        let stored = try Self.stored(50)
        let (meta, parts) = RedisSnapshotCodec.encode(stored, partBytes: 100)
        #expect(RedisSnapshotCodec.header(meta) != nil, "the unchanged record reads")
        var fields = try #require(try JSONSerialization.jsonObject(with: Data(meta)) as? [String: Any])
        fields[field] = NSDecimalNumber(string: value)
        let changed = Array(try JSONSerialization.data(withJSONObject: fields))
        #expect(RedisSnapshotCodec.header(changed) == nil)
        #expect(RedisSnapshotCodec.freshness(changed, token: stored.token) == nil)
        #expect(await RedisSnapshotCodec.decode(meta: changed, parts: parts) == nil)
    }

    @Test func theCodecRoundTripsThroughManyPartsAndRefusesAnyChange() async throws {
        let stored = try Self.stored(50)
        let (meta, parts) = RedisSnapshotCodec.encode(stored, partBytes: 100)
        #expect(parts.count > 10)
        let decoded = try #require(await RedisSnapshotCodec.decode(meta: meta, parts: parts))
        #expect(decoded.token == stored.token)
        #expect(Self.elements(decoded.list) == Self.elements(stored.list))
        #expect(decoded.etag == stored.etag && decoded.mustRevalidate && decoded.lifetimeMilliseconds == 60_000)

        var flipped = parts
        flipped[3][7] = flipped[3][7] == UInt8(ascii: "1") ? UInt8(ascii: "2") : UInt8(ascii: "1")
        #expect(await RedisSnapshotCodec.decode(meta: meta, parts: flipped) == nil, "a changed byte changes the token")
        var missing: [[UInt8]?] = parts
        missing[5] = nil
        #expect(await RedisSnapshotCodec.decode(meta: meta, parts: missing) == nil)
        #expect(await RedisSnapshotCodec.decode(meta: meta, parts: Array(parts.dropLast())) == nil)
        #expect(await RedisSnapshotCodec.decode(meta: Array("{}".utf8), parts: parts) == nil)
    }

    /// The upstream's `Age` travels with the list; metadata written without it (by a replica
    /// of an earlier version) still reads, as age 0, and such a replica reads the new key's
    /// metadata too (JSON keys it does not know are skipped).
    @Test func theUpstreamsAgeTravelsAndOlderMetadataStillReads() async throws {
        var stored = try Self.stored(5)
        stored.initialAgeMilliseconds = 4_000
        let (meta, parts) = RedisSnapshotCodec.encode(stored)
        #expect(await RedisSnapshotCodec.decode(meta: meta, parts: parts)?.initialAgeMilliseconds == 4_000)
        #expect(RedisSnapshotCodec.freshness(meta, token: stored.token)?.initialAgeMilliseconds == 4_000)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(meta)) as? [String: Any])
        #expect(object["initialAge"] as? Int == 4_000)
        object["initialAge"] = nil
        let older = Array(try JSONSerialization.data(withJSONObject: object))
        let read = try #require(await RedisSnapshotCodec.decode(meta: older, parts: parts))
        #expect(read.initialAgeMilliseconds == 0 && read.token == stored.token)
        // A changed record cannot make an age negative, nor one a sum overflows.
        for (recorded, kept) in [(-5, 0), (Int64.max, Int64(1 << 31) * 1000)] as [(Int64, Int64)] {
            object["initialAge"] = recorded
            let changed = Array(try JSONSerialization.data(withJSONObject: object))
            #expect(await RedisSnapshotCodec.decode(meta: changed, parts: parts)?.initialAgeMilliseconds == kept)
        }
    }

    /// A list is read back under the limits given: by default (`readBackLimits`) deeper than
    /// the default 128 levels, since another replica may allow more; refused when it has more
    /// items or bytes than allowed (before anything is reserved for it) or nests deeper.
    @Test func theCodecReadsUnderTheLimitsItIsGiven() async throws {
        let deep = String(repeating: "[", count: 150) + String(repeating: "]", count: 150)
        let body = "[" + deep + "," + deep + "]"
        var indexer = ListIndexer(items: .root, limits: IndexLimits(maxDepth: 200), sort: [])
        try indexer.append(Array(body.utf8))
        _ = try indexer.endBody()
        let (list, token) = try indexer.finish()
        let stored = StoredList(
            list: list, token: token, sort: [], storedAtMilliseconds: 0, lifetimeMilliseconds: 1_000, etag: nil,
            lastModified: nil, mustRevalidate: false)
        let (meta, parts) = RedisSnapshotCodec.encode(stored, partBytes: 64)
        let read = await RedisSnapshotCodec.decode(meta: meta, parts: parts, limits: IndexLimits(maxDepth: 200))
        #expect(read?.token == token)
        #expect(read.map { Self.elements($0.list) } == Self.elements(list))
        // The gateway reads back under `readBackLimits`: whatever another replica's config allowed.
        #expect(await RedisSnapshotCodec.decode(meta: meta, parts: parts)?.token == token)
        #expect(await RedisSnapshotCodec.decode(meta: meta, parts: parts, limits: IndexLimits(maxDepth: 150)) == nil)
        #expect(await RedisSnapshotCodec.decode(meta: meta, parts: parts, limits: IndexLimits(maxItems: 1)) == nil)
        #expect(
            await RedisSnapshotCodec.decode(
                meta: meta, parts: parts, limits: IndexLimits(maxBytes: body.utf8.count - 1))
                == nil)
        #expect(
            RedisSnapshotCodec.Decoder(meta: meta, limits: IndexLimits(maxBytes: body.utf8.count - 1)) == nil,
            "refused from its metadata alone")
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
            let read = try #require(try await reader.read(Self.key, token: token))
            #expect(Self.elements(read.list) == Self.elements(stored.list))
            #expect(read.storedAtMilliseconds == stored.storedAtMilliseconds && read.etag == stored.etag)
            #expect(try await reader.read(Self.key, token: "not-a-token") == nil)
            await writer.client.close()
            await reader.client.close()
        }
    }

    /// A snapshot belongs to its cache key: the same list (so the same token) stored for two
    /// keys is two copies, each with its own freshness, and a token is never read for a key
    /// that did not store it (another route, path or `perCredential` partition).
    @Test func aTokenIsReadOnlyForTheKeyThatStoredIt() async throws {
        try await RedisServer.with { server in
            let client = RedisClient(server.configuration())
            let snapshots = RedisSnapshots(client: client, keys: RedisSnapshotKeys(prefix: "folio:"))
            var alice = Self.key
            alice.partition = "alice"
            var bob = Self.key
            bob.partition = "bob"
            let other = CacheKey(route: "other", upstreamURL: Self.key.upstreamURL, varyValues: Self.key.varyValues)
            let stored = try Self.stored(10)
            try await snapshots.write(stored, for: alice, expiry: .seconds(90), retention: .seconds(60))
            #expect(try await snapshots.read(alice, token: stored.token) != nil)
            #expect(try await snapshots.read(bob, token: stored.token) == nil, "another partition")
            #expect(try await snapshots.read(other, token: stored.token) == nil, "another route")
            #expect(try await snapshots.freshness(bob, token: stored.token) == nil)

            var later = stored
            later.storedAtMilliseconds += 30_000
            try await snapshots.write(later, for: other, expiry: .seconds(90), retention: .seconds(60))
            #expect(
                try await snapshots.freshness(alice, token: stored.token)?.storedAtMilliseconds
                    == stored.storedAtMilliseconds, "another key's fill of the same list leaves this key's freshness")
            #expect(
                try await snapshots.freshness(other, token: stored.token)?.storedAtMilliseconds
                    == later.storedAtMilliseconds)
            try await snapshots.drops.drop(route: "other", retention: .zero, atMilliseconds: Self.dropAt + 1)
            #expect(try await snapshots.read(other, token: stored.token) == nil)
            #expect(try await snapshots.read(alice, token: stored.token) != nil, "a drop of another route keeps it")
            await client.close()
        }
    }

    /// A write Redis refuses (full: `-OOM`) fails as a server error, which leaves the store
    /// available (`StoreHealth`), not as a broken connection.
    @Test func aRefusedWriteIsAServerError() async throws {
        try await RedisServer.with { server in
            let client = RedisClient(server.configuration())
            let snapshots = RedisSnapshots(client: client, keys: RedisSnapshotKeys(prefix: "folio:"))
            try await client.send(["CONFIG", "SET", "maxmemory-policy", "noeviction"])
            try await client.send(["CONFIG", "SET", "maxmemory", "1"])
            let stored = try Self.stored(10)
            do throws(RedisError) {
                try await snapshots.write(stored, for: Self.key, expiry: .seconds(90), retention: .zero)
                Issue.record("a full Redis took the write")
            } catch {
                #expect(error.isServerError, "\(error)")
                #expect(error.message.contains("OOM"), "\(error)")
            }
            try await client.send(["CONFIG", "SET", "maxmemory", "0"])
            await client.close()
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
        try await Self.withSnapshots { client, keys, snapshots in
            let stored = try Self.stored(10)
            try await snapshots.write(stored, for: Self.key, expiry: .seconds(90), retention: .seconds(60))
            #expect(try await snapshots.read(Self.key, token: stored.token) != nil)
            let part = try #require(
                try await client.send([
                    "GET", keys.part(RedisSnapshotKeys.hash(Self.key), token: stored.token, index: 0),
                ]).string)
            try await client.send([
                "SET", keys.part(RedisSnapshotKeys.hash(Self.key), token: stored.token, index: 0),
                part.replacingOccurrences(of: "item 3", with: "item 4"),
            ])
            #expect(try await snapshots.read(Self.key, token: stored.token) == nil)
            try await client.send(["DEL", keys.part(RedisSnapshotKeys.hash(Self.key), token: stored.token, index: 0)])
            #expect(try await snapshots.read(Self.key, token: stored.token) == nil)
        }
    }

    @Test func aNewerListSupersedesTheOldOneForItsRetentionAndADropKeepsPinnedLinks() async throws {
        try await Self.withSnapshots { client, keys, snapshots in
            let v1 = try Self.stored(10, tag: "v1")
            let v2 = try Self.stored(10, tag: "v2")
            try await snapshots.write(v1, for: Self.key, expiry: .seconds(90), retention: .seconds(30))
            #expect(try await snapshots.superseded(Self.key, token: v1.token) == nil)
            try await snapshots.write(v2, for: Self.key, expiry: .seconds(90), retention: .seconds(30))
            #expect(try await snapshots.newestToken(for: Self.key) == v2.token)
            let superseded = try #require(try await snapshots.superseded(Self.key, token: v1.token))
            #expect(superseded.atMilliseconds == v2.storedAtMilliseconds)
            #expect(superseded.left <= .seconds(30) && superseded.left > .seconds(25))
            let ttl = try #require(
                try await client.send(["PTTL", keys.meta(RedisSnapshotKeys.hash(Self.key), token: v1.token)]).integer)
            #expect(ttl <= 30_000, "the superseded list lives for its retention only")
            #expect(try await snapshots.read(Self.key, token: v1.token) != nil, "pinned links still read it")

            // A revalidation: same list, new freshness, no part sent again.
            var renewed = v2
            renewed.storedAtMilliseconds += 5_000
            try await snapshots.write(renewed, for: Self.key, expiry: .seconds(120), retention: .seconds(30))
            #expect(
                try await snapshots.freshness(Self.key, token: v2.token)?.storedAtMilliseconds
                    == renewed.storedAtMilliseconds)
            let partTTL = try #require(
                try await client.send(["PTTL", keys.part(RedisSnapshotKeys.hash(Self.key), token: v2.token, index: 0)])
                    .integer)
            #expect(partTTL > 90_000, "the parts' expiry followed the metadata's")

            try await snapshots.drops.drop(
                route: Self.key.route, retention: .seconds(20), atMilliseconds: Self.dropAt + 1)
            #expect(try await snapshots.newestToken(for: Self.key) == nil)
            #expect(try await snapshots.read(Self.key, token: v2.token) != nil)
            #expect(try await snapshots.superseded(Self.key, token: v2.token)?.atMilliseconds == Self.dropAt + 1)
            try await snapshots.drops.drop(route: Self.key.route, retention: .zero, atMilliseconds: Self.dropAt + 2)
            #expect(try await snapshots.read(Self.key, token: v2.token) != nil, "a drop finds only newest pointers")
            try await snapshots.write(v2, for: Self.key, expiry: .seconds(90), retention: .seconds(30))
            try await snapshots.drops.drop(route: Self.key.route, retention: .zero, atMilliseconds: Self.dropAt + 3)
            #expect(try await snapshots.read(Self.key, token: v2.token) == nil, "retention zero deletes the list")
        }
    }

    /// A route's set of pointers holds its live pointers, not one member per key ever written:
    /// under key churn (distinct query values) expired members leave it as other keys are
    /// written, and a drop's scripts see only what is live.
    @Test func aRoutesKeySetHoldsItsLivePointersOnly() async throws {
        try await Self.withSnapshots { client, keys, snapshots in
            let list = try Self.stored(2)
            func key(_ n: Int) -> CacheKey {
                CacheKey(route: "churn", upstreamURL: "http://upstream.test/churn?q=\(n)", varyValues: [])
            }
            for n in 0..<100 {
                try await snapshots.write(list, for: key(n), expiry: .milliseconds(1), retention: .zero)
            }
            try await Task.sleep(for: .milliseconds(20))
            for n in 100..<110 {
                try await snapshots.write(list, for: key(n), expiry: .seconds(600), retention: .zero)
            }
            let members = try await client.send(["ZCARD", keys.routeKeys("churn")]).integer
            #expect(members == 10, "only the live pointers are members")
            let retired = try await snapshots.drops.dropPointers(route: "churn")
            #expect(retired.count == 10)
            #expect(try await client.send(["EXISTS", keys.routeKeys("churn")]).integer == 0)
        }
    }

    /// A drop of a route with many cache keys retires every snapshot its pointers named, in
    /// batched round trips (more snapshots than one batch holds), and nothing else.
    @Test func aDropRetiresEverySnapshotOfARouteWithManyKeys() async throws {
        try await Self.withSnapshots { client, keys, snapshots in
            let count = RedisSnapshots.snapshotsPerBatch + 20
            let cacheKeys = (0..<count).map {
                CacheKey(route: "many", upstreamURL: "http://upstream.test/many?page=\($0)", varyValues: [])
            }
            let lists = try (0..<count).map { try Self.stored(2, tag: "k\($0)") }
            for (key, list) in zip(cacheKeys, lists) {
                try await snapshots.write(list, for: key, expiry: .seconds(600), retention: .zero)
            }
            try await snapshots.write(
                try Self.stored(2, tag: "other"), for: Self.key, expiry: .seconds(600), retention: .zero)

            let retired = try await snapshots.drops.dropPointers(route: "many")
            #expect(Set(retired.map(\.token)) == Set(lists.map(\.token)))
            try await snapshots.retire(retired, retention: .seconds(20), atMilliseconds: 7)
            for (key, list) in zip(cacheKeys, lists) {
                #expect(try await snapshots.newestToken(for: key) == nil)
                #expect(try await snapshots.superseded(key, token: list.token)?.atMilliseconds == 7)
                let ttl = try #require(
                    try await client.send(["PTTL", keys.part(RedisSnapshotKeys.hash(key), token: list.token, index: 0)])
                        .integer)
                #expect(ttl > 0 && ttl <= 20_000)
            }
            #expect(try await snapshots.newestToken(for: Self.key) != nil, "another route's list stays")
        }
    }

    /// A drop's retire runs after the drop was taken, and may be retried later: a refill of the
    /// same list (same token) since the drop keeps its keys, whether it is newest now or was
    /// superseded again (with a retention of its own). A snapshot the drop named and nobody
    /// stored again is retired; a plain supersede (a corrupted newest snapshot) removes even
    /// the newest one.
    @Test func aDropsRetireSparesTheSameListRefilledMeanwhile() async throws {
        try await Self.withSnapshots { _, _, snapshots in
            let v1 = try Self.stored(10, tag: "v1")
            let dropAt = v1.storedAtMilliseconds + 1_000
            var refilled = v1
            refilled.storedAtMilliseconds = dropAt + 1_000
            let v2 = try Self.stored(10, tag: "v2")

            // Refilled and newest when the retire comes.
            try await snapshots.write(v1, for: Self.key, expiry: .seconds(90), retention: .zero)
            let retired = try await snapshots.drops.dropPointers(route: Self.key.route)
            #expect(retired.map(\.token) == [v1.token])
            try await snapshots.write(v1, for: Self.key, expiry: .seconds(90), retention: .zero)
            try await snapshots.retire(retired, retention: .zero, atMilliseconds: dropAt, sparingRefilled: true)
            #expect(try await snapshots.newestToken(for: Self.key) == v1.token)
            #expect(try await snapshots.read(Self.key, token: v1.token)?.token == v1.token)
            try await snapshots.supersede(Self.key, token: v1.token, retention: .zero, atMilliseconds: dropAt)
            #expect(try await snapshots.read(Self.key, token: v1.token) == nil)

            // Refilled, then superseded by another list, when a late retire comes.
            try await snapshots.write(v1, for: Self.key, expiry: .seconds(90), retention: .zero)
            let late = try await snapshots.drops.dropPointers(route: Self.key.route)
            try await snapshots.write(refilled, for: Self.key, expiry: .seconds(90), retention: .zero)
            try await snapshots.write(v2, for: Self.key, expiry: .seconds(90), retention: .seconds(30))
            try await snapshots.retire(late, retention: .zero, atMilliseconds: dropAt, sparingRefilled: true)
            #expect(try await snapshots.read(Self.key, token: v1.token) != nil, "kept for the retention v2 gave it")

            // Not stored again: retired, although another list is newest.
            let named = try await snapshots.drops.dropPointers(route: Self.key.route)
            #expect(named.map(\.token) == [v2.token])
            try await snapshots.write(v1, for: Self.key, expiry: .seconds(90), retention: .zero)
            try await snapshots.retire(named, retention: .zero, atMilliseconds: dropAt, sparingRefilled: true)
            #expect(try await snapshots.read(Self.key, token: v2.token) == nil)
        }
    }

    /// A fill's write names the route's drop generation it read before fetching: after a drop that
    /// came since, its list does not become newest (it would bring back what the drop removed).
    @Test func aWriteADropOvertookDoesNotBecomeNewest() async throws {
        try await Self.withSnapshots { client, keys, snapshots in
            let v1 = try Self.stored(10, tag: "v1")
            let v2 = try Self.stored(10, tag: "v2")
            let before = try await snapshots.drops.dropGeneration(route: Self.key.route)
            #expect(before == 0)
            #expect(
                try await snapshots.write(
                    v1, for: Self.key, expiry: .seconds(90), retention: .zero, dropGeneration: before))
            #expect(try await snapshots.newestToken(for: Self.key) == v1.token)

            try await snapshots.drops.drop(route: Self.key.route, retention: .zero, atMilliseconds: Self.dropAt + 1)
            let after = try await snapshots.drops.dropGeneration(route: Self.key.route)
            #expect(after == before + 1)
            let ttl = try #require(try await client.send(["PTTL", keys.dropGeneration(Self.key.route)]).integer)
            #expect(ttl > 0, "the drop generation expires too")

            #expect(
                try await !snapshots.write(
                    v2, for: Self.key, expiry: .seconds(90), retention: .zero, dropGeneration: before)
            )
            #expect(try await snapshots.newestToken(for: Self.key) == nil)
            #expect(try await snapshots.read(Self.key, token: v2.token) == nil, "its parts were not sent")
            #expect(
                try await snapshots.write(
                    v2, for: Self.key, expiry: .seconds(90), retention: .zero, dropGeneration: after))
            #expect(try await snapshots.newestToken(for: Self.key) == v2.token)
        }
    }

    @Test func theFillLockIsHeldByOneOwnerAndReleasedOnlyByIt() async throws {
        try await RedisServer.with { server in
            let client = RedisClient(server.configuration())
            let snapshots = RedisSnapshots(client: client, keys: RedisSnapshotKeys(prefix: "folio:"))
            #expect(try await snapshots.locks.lock(Self.key, owner: "a", expiry: .seconds(5)))
            #expect(try await snapshots.locks.lock(Self.key, owner: "b", expiry: .seconds(5)) == false)
            #expect(try await snapshots.locks.lockOwner(Self.key) == "a")
            try await snapshots.locks.unlock(Self.key, owner: "b")
            #expect(try await snapshots.locks.lockOwner(Self.key) == "a", "only its owner releases it")
            try await snapshots.locks.recordFailure(
                Self.key, owner: "a", failure: Array("timed out".utf8), expiry: .seconds(5))
            try await snapshots.locks.unlock(Self.key, owner: "a")
            #expect(try await snapshots.locks.lockOwner(Self.key) == nil)
            #expect(try await snapshots.locks.failure(Self.key, owner: "a") == Array("timed out".utf8))
            #expect(
                try await snapshots.locks.failure(Self.key, owner: "b") == nil, "another fill's failure is not ours")

            #expect(try await snapshots.locks.lock(Self.key, owner: "c", expiry: .milliseconds(100)))
            try await Task.sleep(for: .milliseconds(200))
            #expect(
                try await snapshots.locks.lock(Self.key, owner: "d", expiry: .seconds(5)), "an expired lock is free")
            await client.close()
        }
    }

    @Test func aSubscriberGetsWhatIsPublishedAndComesBackAfterARestart() async throws {
        let server = try await RedisServer.start()
        defer { server.stop() }
        let received = Mutex<[String]>([])
        let states = Mutex<[Bool]>([])
        let subscriber = RedisSubscriber(
            server.configuration(), channel: "folio:events", initialBackoff: .milliseconds(50),
            maxBackoff: .milliseconds(200))
        let listening = Task {
            await subscriber.run(
                onMessage: { payload in received.withLock { $0.append(String(decoding: payload, as: UTF8.self)) } },
                onState: { state in
                    states.withLock {
                        if case .success = state { $0.append(true) } else { $0.append(false) }
                    }
                })
        }
        defer { listening.cancel() }
        let client = RedisClient(server.configuration())
        let snapshots = RedisSnapshots(client: client, keys: RedisSnapshotKeys(prefix: "folio:"))
        try await waitFor { states.withLock { $0.last == true } }
        try await snapshots.publish(Array("one".utf8))
        try await client.send(["PUBLISH", "other:events", "not ours"])
        try await waitFor { received.withLock { $0 == ["one"] } }

        server.stop()
        try await waitFor { states.withLock { $0.last == false } }
        // The command connection learns of the close on its event loop, which a loaded machine
        // may not have run yet: a command sent before that fails (RedisClient's contract), and
        // this test is about the subscriber.
        try await waitFor { !client.isConnected }
        let restarted = try await RedisServer.start(port: server.port)
        defer { restarted.stop() }
        try await waitFor { states.withLock { $0.last == true } }
        try await snapshots.publish(Array("two".utf8))
        try await waitFor { received.withLock { $0 == ["one", "two"] } }
        await client.close()
    }

    private func waitFor(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw RedisTestFailure("gave up waiting") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
