import AsyncHTTPClient
import FolioTestSupport
import Foundation
import Synchronization
import Testing

/// A list larger than `cache.redis.localMaxBytes` (docs/SHARED-STORE.md, "Lists larger than the
/// local layer"), with real parts: a `redis-server`, two `folio` processes whose local layer is
/// smaller than the list, and a real upstream that counts its fetches. Before, such a list was
/// stored nowhere: every request on every replica read `fwd=uri-miss` and fetched it again.
@Suite("Shared store: lists larger than the local layer")
struct SharedStoreLargeListTests {
    typealias Replica = SharedStoreTests.Replica

    /// About 300 KB of items, against a local layer of 64 KiB.
    static func body(_ tag: String) -> String { objectsBody(4_000, tag: tag).body }

    @Test func aListLargerThanTheLocalLayerIsFetchedOnceAndLoadedFromRedis() async throws {
        let version = Atomic<Int>(1)
        try await RedisServer.with { redis in
            try await withTestUpstream({ _ in
                .json(Self.body("v\(version.load(ordering: .relaxed))"), headers: [("Cache-Control", "max-age=600")])
            }) { upstream in
                try await SharedStoreTests.withReplicas(
                    2, upstream: upstream, redis: redis, extra: "    localMaxBytes: 64KiB"
                ) { replicas in
                    let (a, b) = (replicas[0], replicas[1])
                    try await withHTTPClient { http in
                        let first = try await http.answer(a.url)
                        #expect(first.status == 200)
                        #expect(first.headers["Cache-Status"].first == "folio; fwd=miss; stored")
                        let pinned = try SharedStoreTests.token(first)

                        let second = try await http.answer(a.url)
                        #expect(Self.isFreshHit(second), "\(second.headers["Cache-Status"].first ?? "")")
                        #expect(try SharedStoreTests.token(second) == pinned)
                        #expect(upstream.requestCount == 1, "the second request was loaded from Redis")

                        // The other replica's first request waited for nobody: a hit, not `collapsed`.
                        let onB = try await http.answer(b.url + "?page=3")
                        #expect(Self.isFreshHit(onB), "\(onB.headers["Cache-Status"].first ?? "")")
                        #expect(try SharedStoreTests.tags(onB) == ["v1"])
                        #expect(upstream.requestCount == 1, "B fetched nothing")

                        // After a purge and a refill, the superseded list still answers its pinned link.
                        version.store(2, ordering: .relaxed)
                        #expect(try await http.answer(SharedStoreTests.purge(a), method: .POST).status == 204)
                        #expect(try SharedStoreTests.tags(try await http.answer(a.url)) == ["v2"])
                        #expect(upstream.requestCount == 2)
                        let old = try await http.answer(b.url + "?snapshot=\(pinned)")
                        #expect(old.status == 200)
                        #expect(try SharedStoreTests.tags(old) == ["v1"])
                        #expect(upstream.requestCount == 2)
                    }
                }
            }
        }
    }

    static func isFreshHit(_ answer: HTTPAnswer) -> Bool {
        answer.status == 200 && answer.headers["Cache-Status"].first?.hasPrefix("folio; hit; ttl=") == true
    }
}
