import AsyncHTTPClient
import FolioEngine
import FolioRedis
import FolioTestSupport
import Foundation
import Synchronization
import Testing

/// `cache.store: redis` (docs/SHARED-STORE.md) with real parts: a `redis-server` the test starts, two
/// `folio` processes on it, and a real upstream that counts what it is asked.
@Suite("Shared store: several replicas on one Redis")
struct SharedStoreTests {
    /// One replica: the built executable with `store: redis`, its client and admin ports.
    struct Replica {
        let process: FolioProcess
        let client: Int
        let admin: Int

        var url: String { "http://127.0.0.1:\(client)/objects" }

        func metrics(_ http: HTTPClient) async throws -> PrometheusSamples {
            try PrometheusSamples(try await http.answer("http://127.0.0.1:\(admin)/metrics").text)
        }
    }

    /// The password of the Redis in `redisKilledOrStopped…`: no log line may contain it.
    static let password = "hunter2-s3cret"

    /// `redisURL` replaces the URL (a TLS one, say); `extra` goes under `cache.redis`'s keys.
    static func yaml(
        upstream: String, redis: Int, password: String? = nil, extra: String = "", route: String = "",
        redisURL: String? = nil
    ) -> String {
        gatewayYAML(
            upstream: upstream + "/objects", admin: true, route: route,
            top: """
                cache:
                  staleWhileRevalidate: 0s
                  store: redis
                  redis:
                    url: \(redisURL ?? "redis://\(password.map { ":\($0)@" } ?? "")127.0.0.1:\(redis)")
                    keyPrefix: "test:"
                    commandTimeout: 300ms
                    connectTimeout: 300ms
                \(extra)
                """)
    }

    /// Starts `count` replicas on `redis` in front of `upstream`; stops them after `body`.
    static func withReplicas<T>(
        _ count: Int, upstream: TestUpstream, redis: RedisServer, password: String? = nil, extra: String = "",
        route: String = "", redisURL: String? = nil, _ body: ([Replica]) async throws -> T
    ) async throws -> T {
        var replicas: [Replica] = []
        defer { for replica in replicas { replica.process.stop() } }
        for _ in 0..<count {
            let process = try FolioProcess(
                yaml: yaml(
                    upstream: upstream.baseURL, redis: redis.port, password: password, extra: extra, route: route,
                    redisURL: redisURL))
            let (client, admin) = try await process.ports()
            replicas.append(Replica(process: process, client: client, admin: admin))
        }
        return try await body(replicas)
    }

    /// The list the upstream serves now: `version` is in every item, so answers tell which
    /// version they came from.
    final class Versioned: Sendable {
        let version = Atomic<Int>(1)
        func body() -> String { objectsBody(30, tag: "v\(version.load(ordering: .relaxed))").body }
    }

    static func tags(_ answer: HTTPAnswer) throws -> Set<String> {
        let items = try #require(try answer.json["objects"] as? [[String: Any]])
        return Set(items.compactMap { $0["tag"] as? String })
    }

    static func token(_ answer: HTTPAnswer) throws -> String {
        try #require(try (answer.json["paging"] as? [String: Any])?["snapshot"] as? String)
    }

    /// `count` requests at once, to the replicas in turn.
    static func answers(_ count: Int, from replicas: [Replica]) async throws -> [HTTPAnswer] {
        try await withThrowingTaskGroup(of: HTTPAnswer.self) { group in
            for index in 0..<count {
                let replica = replicas[index % replicas.count]
                group.addTask { try await withHTTPClient { try await $0.answer(replica.url) } }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func concurrentColdRequestsOnTwoReplicasMakeOneUpstreamFetch() async throws {
        let list = Versioned()
        try await RedisServer.with { redis in
            try await withTestUpstream({ _ in
                var reply = TestUpstream.Reply.json(list.body())
                reply.delay = .milliseconds(600)
                return reply
            }) { upstream in
                try await Self.withReplicas(2, upstream: upstream, redis: redis) { replicas in
                    let answers = try await Self.answers(12, from: replicas)
                    #expect(answers.allSatisfy { $0.status == 200 })
                    #expect(upstream.requestCount == 1, "one fetch for both replicas")
                    let statuses = answers.compactMap { $0.headers["Cache-Status"].first }
                    #expect(statuses.filter { $0.contains("fwd=miss; stored") }.count == 1, "\(statuses)")
                    #expect(statuses.filter { $0.contains("collapsed") }.count == 11, "\(statuses)")
                    #expect(Set(try answers.map(Self.token)).count == 1)
                }
            }
        }
    }

    /// `rediss://` to a Redis whose certificate a private CA signed: with `caFile` the replicas
    /// share one fill through it; without, the handshake fails (the system does not trust that
    /// CA), each replica fetches on its own, and no request fails.
    @Test(arguments: [true, false])
    func replicasReachATLSRedisOfAPrivateCAThroughItsCAFile(_ withCAFile: Bool) async throws {
        let tls = try await TLSFiles.make()
        defer { try? FileManager.default.removeItem(at: tls.directory) }
        try await Self.twoReplicas(
            on: tls, extra: withCAFile ? "    caFile: \(tls.caFile)" : "", share: withCAFile,
            "the failed handshakes are counted")
    }

    /// Mutual TLS: a Redis that asks clients for a certificate of its CA takes the replicas'
    /// `certFile` and `keyFile`, and refuses them (each then fetches on its own, and no request
    /// fails) without.
    @Test(arguments: [true, false])
    func replicasShowTheirClientCertificateToARedisThatAsksForOne(_ withCertificate: Bool) async throws {
        let tls = try await TLSFiles.make(authenticatingClients: true)
        defer { try? FileManager.default.removeItem(at: tls.directory) }
        let certificate = tls.clientCertificate
        try await Self.twoReplicas(
            on: tls,
            extra: "    caFile: \(tls.caFile)"
                + (withCertificate ? "\n    certFile: \(certificate.chain)\n    keyFile: \(certificate.key)" : ""),
            share: withCertificate, "the refused connections are counted")
    }

    /// Two replicas with `extra` under `cache.redis` on the TLS Redis of `tls`, six requests
    /// to them (every answer 200) while the upstream takes 600 ms: when they `share` Redis,
    /// one upstream fetch for both and no store errors; otherwise one fetch each, and the
    /// first replica counted store errors (`why`).
    static func twoReplicas(on tls: TLSFiles, extra: String, share: Bool, _ why: Comment) async throws {
        let list = Versioned()
        try await RedisServer.with(tls: tls) { redis in
            try await withTestUpstream({ _ in
                var reply = TestUpstream.Reply.json(list.body())
                reply.delay = .milliseconds(600)
                return reply
            }) { upstream in
                try await Self.withReplicas(
                    2, upstream: upstream, redis: redis, extra: extra, redisURL: "rediss://127.0.0.1:\(redis.port)"
                ) { replicas in
                    let answers = try await Self.answers(6, from: replicas)
                    #expect(answers.allSatisfy { $0.status == 200 })
                    let errors = try await withHTTPClient { http in
                        try await replicas[0].metrics(http).values
                            .filter { $0.key.hasPrefix("folio_store_errors_total{") }.values.reduce(0, +)
                    }
                    if share {
                        #expect(upstream.requestCount == 1, "one fetch for both replicas, through Redis")
                        #expect(errors == 0)
                    } else {
                        #expect(upstream.requestCount == 2, "each replica on its own")
                        #expect(errors > 0, why)
                    }
                }
            }
        }
    }

    /// When the one fill for all replicas gets the upstream's error answer, the replicas that waited for it pass that
    /// answer back too (docs/API.md, "Errors"; docs/SHARED-STORE.md: "they get its error"), not a 502.
    @Test func replicasThatWaitedGetTheUpstreamsErrorAnswer() async throws {
        try await RedisServer.with { redis in
            try await withTestUpstream({ _ in
                TestUpstream.Reply(
                    status: 503, headers: [("Content-Type", "text/plain"), ("Retry-After", "30")],
                    body: Array("down for maintenance".utf8), delay: .milliseconds(600))
            }) { upstream in
                try await Self.withReplicas(2, upstream: upstream, redis: redis) { replicas in
                    let answers = try await Self.answers(6, from: replicas)
                    #expect(upstream.requestCount == 1, "one fetch for both replicas")
                    for answer in answers {
                        #expect(answer.status == 503, "\(answer.status) \(answer.text)")
                        #expect(answer.text == "down for maintenance")
                        #expect(answer.headers["Retry-After"].first == "30")
                    }
                }
            }
        }
    }

    @Test func aReplicaAnswersAnotherReplicasPinnedLinkAfterTheUpstreamChanged() async throws {
        let list = Versioned()
        try await RedisServer.with { redis in
            // v1 expires after a second; v2 stays fresh through the rest, however slow the machine.
            try await withTestUpstream({ _ in
                let maxAge = list.version.load(ordering: .relaxed) == 1 ? 1 : 600
                return .json(list.body(), headers: [("Cache-Control", "max-age=\(maxAge)")])
            }) { upstream in
                try await Self.withReplicas(2, upstream: upstream, redis: redis) { replicas in
                    try await withHTTPClient { http in
                        let first = try await http.answer(replicas[0].url)
                        let pinned = try Self.token(first)
                        list.version.store(2, ordering: .relaxed)
                        try await Task.sleep(for: .milliseconds(1_100))
                        let second = try await http.answer(replicas[0].url)
                        #expect(try Self.tags(second) == ["v2"])
                        #expect(upstream.requestCount == 2)

                        let onB = try await http.answer(replicas[1].url + "?snapshot=\(pinned)")
                        #expect(onB.status == 200)
                        #expect(try Self.tags(onB) == ["v1"], "the pinned list, as A saw it")
                        #expect(try Self.token(onB) == pinned)
                        let current = try await http.answer(replicas[1].url)
                        #expect(try Self.tags(current) == ["v2"])
                        #expect(current.headers["Cache-Status"].first?.contains("hit") == true)
                        #expect(upstream.requestCount == 2, "B fetched nothing: both came from Redis")
                    }
                }
            }
        }
    }

    /// A pinned request that finds its list stale is answered at once on any replica, from
    /// its own copy or Redis's, while the one refresh it started (for all replicas) is held
    /// upstream (issue 39); the refresh lands afterwards for every replica. A replica that
    /// waited for the held refresh would answer 504 at `upstreamTimeout`.
    @Test func aPinnedRequestOnAStaleListNeverWaitsForTheRefreshOnAnyReplica() async throws {
        let list = Versioned()
        let release = Latch()
        try await RedisServer.with { redis in
            try await withTestUpstream({ _ in
                let version = list.version.load(ordering: .relaxed)
                if version == 2 { await release.wait() }
                return .json(list.body(), headers: [("Cache-Control", "max-age=\(version == 1 ? 1 : 600)")])
            }) { upstream in
                try await Self.withReplicas(
                    2, upstream: upstream, redis: redis, extra: "limits:\n  upstreamTimeout: 5s"
                ) { replicas in
                    try await withHTTPClient { http in
                        let first = try await http.answer(replicas[0].url)
                        let pinned = try Self.token(first)
                        list.version.store(2, ordering: .relaxed)
                        try await Task.sleep(for: .milliseconds(1_100))
                        // A holds the list itself; B never saw it and reads it from Redis.
                        for replica in replicas + replicas {
                            let answer = try await http.answer(replica.url + "?snapshot=\(pinned)")
                            #expect(answer.status == 200, "\(answer.text)")
                            #expect(try Self.tags(answer) == ["v1"])
                            let cacheStatus = answer.headers["Cache-Status"].first ?? ""
                            #expect(cacheStatus.hasPrefix("folio; hit; ttl=-"), "\(cacheStatus)")
                        }
                        try await waitUntil("a refresh reached the upstream") { upstream.requestCount >= 2 }
                        #expect(!release.isOpen, "answered while the refresh is held")
                        #expect(upstream.requestCount == 2, "one refresh for both replicas")

                        release.open()
                        for replica in replicas {
                            #expect(try await Self.eventuallyServes(["v2"], replica, http, within: .seconds(10)))
                        }
                        #expect(upstream.requestCount == 2, "one refresh for both replicas")
                        let retained = try await http.answer(replicas[1].url + "?snapshot=\(pinned)")
                        #expect(try Self.tags(retained) == ["v1"], "the pinned list, retained")
                    }
                }
            }
        }
    }

    /// A token is answered only for the cache key that stored it (docs/API.md, "Snapshots"; docs/CACHING.md,
    /// "Credentials"): one `perCredential` partition's pinned link is 410 for another credential and for none, on a
    /// replica that loads it from Redis as on the one that filled it; so is another route's.
    @Test func aPinnedLinkNeverReadsAnotherPartitionsList() async throws {
        try await RedisServer.with { redis in
            try await withTestUpstream({ request in
                .json(objectsBody(3, tag: request.header("Authorization") ?? "anonymous").body)
            }) { upstream in
                try await Self.withReplicas(2, upstream: upstream, redis: redis, route: "authorized: perCredential") {
                    replicas in
                    try await withHTTPClient { http in
                        let alice = [("Authorization", "Bearer alice")]
                        let bob = [("Authorization", "Bearer bob")]
                        let pinned = try Self.token(try await http.answer(replicas[0].url, headers: alice))
                        let bobs = try await http.answer(replicas[1].url, headers: bob)
                        #expect(try Self.tags(bobs) == ["Bearer bob"])
                        for replica in replicas {
                            let asBob = try await http.answer(replica.url + "?snapshot=\(pinned)", headers: bob)
                            #expect(asBob.status == 410, "\(asBob.status) \(asBob.text)")
                            #expect(!asBob.text.contains("alice"))
                            let asNobody = try await http.answer(replica.url + "?snapshot=\(pinned)")
                            #expect(asNobody.status == 410, "\(asNobody.status) \(asNobody.text)")
                        }
                        let onB = try await http.answer(replicas[1].url + "?snapshot=\(pinned)", headers: alice)
                        #expect(onB.status == 200)
                        #expect(try Self.tags(onB) == ["Bearer alice"], "alice's own link works on any replica")
                    }
                }
            }
        }
    }

    @Test func aRevalidationByOneReplicaRefreshesTheListForAll() async throws {
        let list = Versioned()
        try await RedisServer.with { redis in
            try await withTestUpstream({ request in
                // Three seconds: B's first request must come while A's fill is fresh, on a loaded machine too.
                let headers = [("Cache-Control", "max-age=3"), ("ETag", "\"e1\"")]
                if request.header("If-None-Match") == "\"e1\"" {
                    return TestUpstream.Reply(status: 304, headers: headers)
                }
                return .json(list.body(), headers: headers)
            }) { upstream in
                try await Self.withReplicas(2, upstream: upstream, redis: redis) { replicas in
                    try await withHTTPClient { http in
                        _ = try await http.answer(replicas[0].url)
                        let first = try await http.answer(replicas[1].url)
                        #expect(first.headers["Cache-Status"].first?.contains("hit") == true, "B loaded A's list")
                        try await Task.sleep(for: .milliseconds(3_100))
                        let revalidated = try await http.answer(replicas[0].url)
                        #expect(revalidated.headers["Cache-Status"].first?.contains("fwd-status=304") == true)
                        #expect(upstream.requests.last?.header("If-None-Match") == "\"e1\"")
                        // A answers before its copy to Redis lands, and releases the key's lock
                        // after it: asked sooner, B would wait for A's lock (`collapsed`).
                        let client = RedisClient(redis.configuration())
                        try await waitUntil("A's renewed freshness is in Redis") {
                            guard case .array(let locks?) = try await client.send(["KEYS", "test:lock:*"]) else {
                                return false
                            }
                            return locks.isEmpty
                        }
                        await client.close()

                        // B's own copy is stale too; it finds A's new freshness in Redis.
                        let onB = try await http.answer(replicas[1].url)
                        let onBStatus = onB.headers["Cache-Status"].first ?? ""
                        #expect(onBStatus.contains("hit; ttl=") && !onBStatus.contains("ttl=-"), "\(onB.headers)")
                        #expect(upstream.requestCount == 2, "one fetch and one revalidation, both by A")
                    }
                }
            }
        }
    }

    /// During a rolling change of a setting that shapes the list (`sort` here), replicas on the
    /// old and the new config never serve each other's lists; a reload that changes something
    /// else (the page size) drops only the reloading replica's copies, not the shared list.
    @Test func replicasOnDifferentListSettingsKeepTheirOwnListsAndAReloadDropsNoSharedOne() async throws {
        try await RedisServer.with { redis in
            try await withTestUpstream({ _ in .json(objectsBody(30).body) }) { upstream in
                let ascending = Self.yaml(upstream: upstream.baseURL, redis: redis.port, route: "sort: [id]")
                let descending = Self.yaml(upstream: upstream.baseURL, redis: redis.port, route: #"sort: ["-id"]"#)
                let a = try FolioProcess(yaml: ascending)
                defer { a.stop() }
                let b = try FolioProcess(yaml: descending)
                defer { b.stop() }
                let onA = "http://127.0.0.1:\(try await a.ports().client)/objects"
                let onB = "http://127.0.0.1:\(try await b.ports().client)/objects"
                try await withHTTPClient { http in
                    let first = try await http.answer(onA)
                    let second = try await http.answer(onB)
                    #expect(
                        second.headers["Cache-Status"].first?.contains("fwd=miss; stored") == true, "\(second.headers)")
                    #expect(upstream.requestCount == 2, "each config fetched its own list")
                    #expect(try Self.token(first) != Self.token(second))
                    let firstIDs = try #require(try first.json["objects"] as? [[String: Any]]).compactMap {
                        $0["id"] as? Int
                    }
                    let secondIDs = try #require(try second.json["objects"] as? [[String: Any]]).compactMap {
                        $0["id"] as? Int
                    }
                    #expect(firstIDs.first == 0 && secondIDs.first == 29)

                    try b.rewriteConfig(descending + "\n    pageSize: 5")
                    b.signal(SIGHUP)
                    try await b.message("config reloaded")
                    let reloaded = try await http.answer(onB)
                    #expect(reloaded.status == 200)
                    #expect(try Self.token(reloaded) == Self.token(second), "B's list, read back from Redis")
                    #expect((try reloaded.json["objects"] as? [Any])?.count == 5)
                    let stillOnA = try await http.answer(onA)
                    #expect(stillOnA.headers["Cache-Status"].first?.contains("hit") == true, "\(stillOnA.headers)")
                    #expect(upstream.requestCount == 2, "the reload dropped no shared list")
                }
            }
        }
    }

    @Test func aPurgeOnOneReplicaReachesTheOtherWithinASecond() async throws {
        try await Self.withTwoReplicas { redis, list, upstream, replicas, http in
            _ = try await http.answer(replicas[0].url)
            let onB = try await http.answer(replicas[1].url)
            #expect(try Self.tags(onB) == ["v1"])
            #expect(upstream.requestCount == 1)

            list.version.store(2, ordering: .relaxed)
            let purge = try await http.answer(
                "http://127.0.0.1:\(replicas[0].admin)/purge?route=objects", method: .POST)
            #expect(purge.status == 204)
            let purged = ContinuousClock.now
            var tags: Set<String> = []
            while ContinuousClock.now - purged < .seconds(1) {
                tags = try Self.tags(try await http.answer(replicas[1].url))
                if tags == ["v2"] { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(tags == ["v2"], "B stopped serving the dropped list within 1 s")
            #expect(upstream.requestCount == 2)
        }
    }

    /// A list whose bytes in Redis no longer give its token is never served, and the fill that
    /// replaces it writes it whole, so Redis does not keep the bad part (docs/SHARED-STORE.md).
    @Test func aValueCorruptedInRedisIsNeverServedAndIsWrittenAnew() async throws {
        try await Self.withTwoReplicas { redis, list, upstream, replicas, http in
            let first = try await http.answer(replicas[0].url)
            let token = try Self.token(first)
            // Same length, one digit changed: only the token check can tell.
            let client = RedisClient(redis.configuration())
            let name = try await Self.snapshotKey(client, token: token, "part:0")
            let original = try #require(try await client.send(["GET", name]).bytes)
            var part = original
            let digit = try #require(part.firstIndex(of: UInt8(ascii: "7")))
            part[digit] = UInt8(ascii: "8")
            try await client.send([Array("SET".utf8), Array(name.utf8), part])

            let onB = try await http.answer(replicas[1].url)
            #expect(onB.status == 200)
            #expect(try Self.tags(onB) == ["v1"])
            #expect(upstream.requestCount == 2, "B fetched the list itself")
            let samples = try await replicas[1].metrics(http)
            #expect(samples.value("folio_store_errors_total", ["operation": "verify"]) >= 1)
            // B's fill wrote the same list (the same token) whole again: the bad part
            // is replaced, not kept with a new expiry.
            var repaired: [UInt8]? = nil
            for _ in 0..<40 where repaired != original {
                repaired = try await client.send(["GET", name]).bytes
                if repaired != original { try await Task.sleep(for: .milliseconds(50)) }
            }
            let isRepaired = repaired == original
            #expect(isRepaired, "the part was written anew")
            await client.close()
        }
    }

    @Test func everyKeyFolioWritesExpires() async throws {
        let list = Versioned()
        try await RedisServer.with { redis in
            try await withTestUpstream({ _ in .json(list.body(), headers: [("Cache-Control", "max-age=1")]) }) {
                upstream in
                try await Self.withReplicas(1, upstream: upstream, redis: redis) { replicas in
                    try await withHTTPClient { http in
                        _ = try await http.answer(replicas[0].url)
                        list.version.store(2, ordering: .relaxed)
                        try await Task.sleep(for: .milliseconds(1_100))
                        _ = try await http.answer(replicas[0].url)  // supersedes v1
                        _ = try await http.answer(
                            "http://127.0.0.1:\(replicas[0].admin)/purge?route=objects", method: .POST)
                    }
                }
            }
            let client = RedisClient(redis.configuration())
            let reply = try await client.send(["KEYS", "*"])
            guard case .array(let names?) = reply else { throw TestFailure("KEYS gave \(reply)") }
            #expect(names.count >= 5, "two snapshots (meta, part, superseded mark) were written")
            for name in names.compactMap(\.string) {
                #expect(name.hasPrefix("test:"))
                let ttl = try #require(try await client.send(["PTTL", name]).integer)
                #expect(ttl > 0, "\(name) has no expiry")
            }
            await client.close()
        }
    }

    /// Two replicas that both hold version 1 of the list, for `body` to purge it: the upstream
    /// serves version 2 from then on.
    /// Two replicas on one Redis in front of an upstream serving `list`, and a client.
    static func withTwoReplicas(
        _ body: @escaping (RedisServer, Versioned, TestUpstream, [Replica], HTTPClient) async throws -> Void
    ) async throws {
        let list = Versioned()
        try await RedisServer.with { redis in
            try await withTestUpstream({ _ in .json(list.body()) }) { upstream in
                try await Self.withReplicas(2, upstream: upstream, redis: redis) { replicas in
                    try await withHTTPClient { http in try await body(redis, list, upstream, replicas, http) }
                }
            }
        }
    }

    static func withTwoReplicasHoldingV1(
        _ body: @escaping (RedisServer, _ a: Replica, _ b: Replica, HTTPClient) async throws -> Void
    ) async throws {
        try await Self.withTwoReplicas { redis, list, upstream, replicas, http in
            let (a, b) = (replicas[0], replicas[1])
            #expect(try Self.tags(try await http.answer(a.url)) == ["v1"])
            #expect(try Self.tags(try await http.answer(b.url)) == ["v1"])
            list.version.store(2, ordering: .relaxed)
            try await body(redis, a, b, http)
        }
    }

    /// A purge while Redis hangs is kept and sent when it is back, before the store is used
    /// again: the replica that purged never loads the list it dropped back from Redis, and the
    /// other replica hears the drop (docs/CACHING.md, "Invalidation"; docs/SHARED-STORE.md).
    @Test func aPurgeWhileRedisHangsIsSentWhenItIsBack() async throws {
        try await Self.withTwoReplicasHoldingV1 { redis, a, b, http in
            redis.pause()
            #expect(try await http.answer(Self.purge(a), method: .POST).status == 204)
            try await a.process.message("shared store unavailable")
            redis.resume()
            try await a.process.message("shared store available")
            #expect(try Self.tags(try await http.answer(a.url)) == ["v2"], "A's purge reached Redis")
            #expect(try await Self.eventuallyServes(["v2"], b, http), "B heard it")
        }
    }

    /// A purge Redis refuses (READONLY: the store stays available, as after a failover to a
    /// replica) is kept and sent when Redis takes writes again; meanwhile the replica that
    /// purged does not load the dropped list back from Redis (before: it did at once, and the
    /// drop was never sent, so the other replica served the purged list until it went stale).
    @Test func aPurgeRedisRefusesIsSentWhenItTakesWritesAgain() async throws {
        try await Self.withTwoReplicasHoldingV1 { redis, a, b, http in
            let client = RedisClient(redis.configuration())
            try await client.send(["REPLICAOF", "127.0.0.1", "1"])  // reads work, writes fail
            #expect(try await http.answer(Self.purge(a), method: .POST).status == 204)
            #expect(try Self.tags(try await http.answer(a.url)) == ["v2"], "A did not load v1 back")
            try await client.send(["REPLICAOF", "NO", "ONE"])
            await client.close()
            #expect(try await Self.eventuallyServes(["v2"], b, http), "B heard the drop once it was sent")
        }
    }

    /// A replica whose events subscription broke may have missed a drop: when it is back, its
    /// local copies are checked against Redis, so a list another replica purged meanwhile is
    /// not served as current (docs/SHARED-STORE.md).
    @Test func aReplicaThatMissedADropChecksItsCopiesWhenItsEventsAreBack() async throws {
        try await Self.withTwoReplicasHoldingV1 { redis, a, b, http in
            // Every subscription goes; the purge is published before they are back.
            let client = RedisClient(redis.configuration())
            try await client.send(["CLIENT", "KILL", "TYPE", "pubsub"])
            #expect(try await http.answer(Self.purge(a), method: .POST).status == 204)
            await client.close()
            try await b.process.message("shared store events back")
            // A's own subscription broke too, so its drop may wait for its next ping (1 s), and
            // B's store is back only after its own ping: on a busy CI machine this took over 5 s.
            #expect(
                try await Self.eventuallyServes(["v2"], b, http, within: .seconds(15)),
                "B stopped serving the dropped list")
        }
    }

    /// A subscription that broke and came back, with no drop meanwhile, costs no upstream
    /// fetch: Redis still names each replica's copy, which is current again (before, every
    /// replica filled its lists from the upstream, without the lock, until its next ping).
    @Test func aLostSubscriptionAloneKeepsTheListsTheReplicasHold() async throws {
        try await Self.withTwoReplicasHoldingV1 { redis, a, b, http in
            let client = RedisClient(redis.configuration())
            try await client.send(["CLIENT", "KILL", "TYPE", "pubsub"])
            await client.close()
            try await a.process.message("shared store events back")
            try await b.process.message("shared store events back")
            // The upstream now serves v2: any fetch would show.
            for replica in [a, b, a, b] {
                #expect(try Self.tags(try await http.answer(replica.url)) == ["v1"])
            }
        }
    }

    /// A filler that dies holding the lock: once its lease lapses (about 2 s after its death) one
    /// waiting replica takes over, and the others wait for that one instead of all fetching
    /// (docs/SHARED-STORE.md: never a burst of fetches). The upstream takes 2.5 s an answer; the
    /// timeout leaves that fetch room on a busy machine (3 s gave 504s under a loaded suite).
    @Test func whenTheFillerDiesOneWaiterTakesOverForAll() async throws {
        let (body, _) = objectsBody(10)
        try await RedisServer.with { redis in
            try await withTestUpstream({ _ in
                var reply = TestUpstream.Reply.json(body)
                reply.delay = .milliseconds(2500)
                return reply
            }) { upstream in
                try await Self.withReplicas(
                    3, upstream: upstream, redis: redis, extra: "limits:\n  upstreamTimeout: 8s"
                ) { replicas in
                    try await withHTTPClient { http in
                        let (a, b, c) = (replicas[0], replicas[1], replicas[2])
                        let dead = Task { try? await http.answer(a.url) }
                        try await waitUntil("A fetches") { upstream.requestCount == 1 }
                        a.process.signal(SIGKILL)
                        _ = await dead.value
                        async let fromB = http.answer(b.url)
                        async let fromC = http.answer(c.url)
                        let answers = try await [fromB, fromC]
                        #expect(answers.map(\.status) == [200, 200])
                        #expect(upstream.requestCount == 2, "A's fetch and one for B and C")
                    }
                }
            }
        }
    }

    /// A metadata record changed in Redis (numbers no filler writes, another token, not JSON)
    /// is refused and counted like changed parts, never trusted: no crash, no hang, no key
    /// name per claimed part; the replica fetches the list itself, and a purge still works.
    @Test(arguments: [
        #""parts":1000000000000"#, #""storedAt":-9223372036854775808"#, #""token":"BBBBBBBBBBBBBBBB""#, "not json",
    ])
    func aChangedMetadataRecordIsRefusedAndCounted(change: String) async throws {
        try await Self.withTwoReplicas { redis, _, upstream, replicas, http in
            let (a, b) = (replicas[0], replicas[1])
            let token = try Self.token(try await http.answer(a.url))
            let client = RedisClient(redis.configuration())
            let name = try await Self.snapshotKey(client, token: token, "meta")
            let meta = String(decoding: try #require(try await client.send(["GET", name]).bytes), as: UTF8.self)
            let key = String(change.prefix { $0 != ":" })
            var changed = change
            if key.hasPrefix("\"") {
                // Replaces the field's value in place, whatever it was.
                let pattern = try Regex(key + #":("[^"]*"|-?[0-9]+)"#)
                changed = meta.replacing(pattern, with: change)
                #expect(changed != meta, "the record has \(key)")
            }
            try await client.send([Array("SET".utf8), Array(name.utf8), Array(changed.utf8), Array("KEEPTTL".utf8)])
            await client.close()

            let onB = try await http.answer(b.url)
            #expect(onB.status == 200)
            #expect(try Self.tags(onB) == ["v1"])
            #expect(upstream.requestCount == 2, "B fetched the list itself")
            let samples = try await b.metrics(http)
            #expect(samples.value("folio_store_errors_total", ["operation": "verify"]) >= 1)
            #expect(try await http.answer(Self.purge(b), method: .POST).status == 204)
        }
    }

    /// A retained snapshot whose items were changed in Redis is never served, and, as for a
    /// current one, the failed check is counted (docs/SHARED-STORE.md: logged and counted, never served).
    @Test func aTamperedRetainedSnapshotIsCountedAndNeverServed() async throws {
        try await Self.withTwoReplicas { redis, list, upstream, replicas, http in
            let (a, b) = (replicas[0], replicas[1])
            // A fills v1 and drops it; its retained copy in Redis is changed; B, which
            // never held it, is asked for it.
            let pinned = try Self.token(try await http.answer(a.url))
            let client = RedisClient(redis.configuration())
            let name = try await Self.snapshotKey(client, token: pinned, "part:0")
            list.version.store(2, ordering: .relaxed)
            #expect(try await http.answer(Self.purge(a), method: .POST).status == 204)
            #expect(try Self.tags(try await http.answer(a.url)) == ["v2"])
            var part = try #require(try await client.send(["GET", name]).bytes)
            let digit = try #require(part.firstIndex(of: UInt8(ascii: "7")))
            part[digit] = UInt8(ascii: "8")
            try await client.send([Array("SET".utf8), Array(name.utf8), part, Array("KEEPTTL".utf8)])
            await client.close()

            // B never held the old list: it reads it from Redis, and the check fails.
            let onB = try await http.answer(b.url + "?snapshot=\(pinned)")
            #expect(onB.status == 410)
            let samples = try await b.metrics(http)
            #expect(samples.value("folio_store_errors_total", ["operation": "verify"]) == 1)
        }
    }

    /// An uncacheable list (`no-store`) cannot be shared, so each requester fetches its own; the
    /// replicas that waited on the first one's lock fetch theirs at once when it is released,
    /// instead of one lock holder after another (which made the latency grow with the number of
    /// replicas). B and C wait on A's fetch; the upstream sees theirs run together.
    @Test func waitersOfAnUncacheableListFetchTheirOwnAtOnce() async throws {
        let (body, _) = objectsBody(5)
        let running = Mutex((now: 0, most: 0))
        try await RedisServer.with { redis in
            try await withTestUpstream({ _ in
                running.withLock {
                    $0.now += 1
                    $0.most = max($0.most, $0.now)
                }
                try? await Task.sleep(for: .milliseconds(800))
                running.withLock { $0.now -= 1 }
                return .json(body, headers: [("Cache-Control", "no-store")])
            }) { upstream in
                try await Self.withReplicas(3, upstream: upstream, redis: redis) { replicas in
                    try await withHTTPClient { http in
                        let (a, b, c) = (replicas[0], replicas[1], replicas[2])
                        async let fromA = http.answer(a.url)
                        try await waitUntil("A fetches") { upstream.requestCount == 1 }
                        async let fromB = http.answer(b.url)
                        async let fromC = http.answer(c.url)
                        let answers = try await [fromA, fromB, fromC]
                        #expect(answers.map(\.status) == [200, 200, 200])
                        #expect(
                            answers.map { $0.headers.first(name: "Cache-Status") }
                                == Array(repeating: "folio; fwd=uri-miss", count: 3))
                        #expect(upstream.requestCount == 3, "one answer each: none may be shared")
                        #expect(running.withLock { $0.most } == 2, "B's and C's fetches ran together")
                    }
                }
            }
        }
    }

    /// Whether `replica` serves a list tagged `tags` within `limit`.
    static func eventuallyServes(
        _ tags: Set<String>, _ replica: Replica, _ http: HTTPClient, within limit: Duration = .seconds(5)
    ) async throws -> Bool {
        let end = ContinuousClock.now + limit
        while ContinuousClock.now < end {
            if try Self.tags(try await http.answer(replica.url)) == tags { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// The Redis key `suffix` (`meta`, `part:0`) of the snapshot with `token`, once it is there:
    /// the copy to Redis runs on its own, after the answer.
    static func snapshotKey(_ client: RedisClient, token: String, _ suffix: String) async throws -> String {
        let found = Mutex<String?>(nil)
        try await waitUntil("the list's \(suffix) is in Redis") {
            guard case .array(let names?) = try await client.send(["KEYS", "test:snapshot:{*:\(token)}:\(suffix)"]),
                names.count == 1, let name = names[0].string
            else { return false }
            found.withLock { $0 = name }
            return true
        }
        return try #require(found.withLock { $0 })
    }

    static func purge(_ replica: Replica) -> String { "http://127.0.0.1:\(replica.admin)/purge?route=objects" }

    @Test func redisKilledOrStoppedNeverFailsARequestAndSharingResumes() async throws {
        let redis = try await RedisServer.start(arguments: ["--requirepass", Self.password])
        defer { redis.stop() }
        try await withTestUpstream({ _ in .json(objectsBody(5).body) }) { upstream in
            try await Self.withReplicas(2, upstream: upstream, redis: redis, password: Self.password) { replicas in
                try await withHTTPClient { http in
                    let (a, b) = (replicas[0], replicas[1])
                    #expect(try await http.answer(a.url).status == 200)

                    redis.stop()
                    // A cached page, and a list B does not hold: both served.
                    #expect(try await http.answer(a.url).status == 200)
                    #expect(try await http.answer(b.url).status == 200)
                    try await a.process.message("shared store unavailable")
                    #expect(try await http.answer("http://127.0.0.1:\(a.admin)/readyz").status == 200)
                    let samples = try await a.metrics(http)
                    let failures = ["read", "write", "ping", "subscribe"].map {
                        samples.value("folio_store_errors_total", ["operation": $0])
                    }
                    #expect(failures.reduce(0, +) >= 1)
                    let onNode = samples.values.filter {
                        $0.key.hasPrefix("folio_store_node_errors_total{")
                            && $0.key.contains("node=\"127.0.0.1:\(redis.port)\"")
                    }
                    #expect(onNode.values.reduce(0, +) >= 1, "the failures are counted under the server's address")
                    let downLines = a.process.logObjects.filter {
                        $0["message"] as? String == "shared store unavailable"
                    }
                    #expect(downLines.count == 1, "one line per change of state")

                    // Back on the same port, empty: sharing resumes once both replicas see it
                    // (the command connection at the next ping, the subscription after its
                    // backoff of at most a second).
                    let restarted = try await RedisServer.start(
                        arguments: ["--requirepass", Self.password], port: redis.port)
                    defer { restarted.stop() }
                    try await a.process.message("shared store available")
                    try await b.process.message("shared store available")
                    try await Task.sleep(for: .milliseconds(1_200))
                    let before = upstream.requestCount
                    #expect(
                        try await http.answer("http://127.0.0.1:\(a.admin)/purge?route=objects", method: .POST).status
                            == 204)
                    #expect(try await http.answer(a.url).status == 200)
                    let onB = try await http.answer(b.url)
                    #expect(onB.status == 200)
                    #expect(upstream.requestCount == before + 1, "B dropped its copy and loaded A's refill from Redis")

                    // Stopped, not dead: no request fails, and none waits much past the
                    // command timeout (300 ms here).
                    restarted.pause()
                    defer { restarted.resume() }
                    let started = ContinuousClock.now
                    #expect(
                        try await http.answer("http://127.0.0.1:\(a.admin)/purge?route=objects", method: .POST).status
                            == 204)
                    #expect(try await http.answer(a.url).status == 200)
                    #expect(try await http.answer(a.url).status == 200)
                    #expect(ContinuousClock.now - started < .seconds(5))
                    let output = (a.process.lines + b.process.lines).joined() + a.process.standardError
                    #expect(!output.contains(Self.password), "the password is never logged")
                    #expect(output.contains("redis://:***@127.0.0.1"), "the URL is logged without it")
                }
            }
        }
    }
}
