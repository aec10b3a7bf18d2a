import AsyncHTTPClient
import FolioTestSupport
import Foundation
import Synchronization
import Testing

/// `since` and watch streams with `cache.store: redis` (docs/API.md, "Changes between
/// snapshots", "Watching a list"): two `folio` processes on one real Redis.
@Suite("Shared store: changes and watchers on several replicas")
struct SharedStoreChangesTests {
    typealias ChangingList = GatewayChangesTests.ChangingList

    static func item(_ id: Int, _ version: String = "v1") -> String { #"{"id":\#(id),"v":"\#(version)"}"# }

    static func token(_ http: HTTPClient, _ replica: SharedStoreTests.Replica) async throws -> String {
        try SharedStoreTests.token(try await http.answer(replica.url + "?pageSize=1"))
    }

    /// A token minted on A answers `since` on B, which never held that snapshot: both snapshots
    /// load through Redis, and no upstream request is made for the answer.
    @Test func aTokenFromOneReplicaAnswersSinceOnAnother() async throws {
        let list = ChangingList((0..<8).map { Self.item($0) })
        try await RedisServer.with { redis in
            try await withTestUpstream({ _ in .json(list.body) }) { upstream in
                try await SharedStoreTests.withReplicas(
                    2, upstream: upstream, redis: redis, route: "idField: id\ncache: { ttl: 600s }"
                ) { replicas in
                    try await withHTTPClient { http in
                        let (a, b) = (replicas[0], replicas[1])
                        let old = try await Self.token(http, a)
                        list.items.withLock {
                            $0.remove(at: 2)
                            $0.append(Self.item(8))
                        }
                        let purged = try await http.answer(
                            "http://127.0.0.1:\(a.admin)/purge?route=objects", method: .POST)
                        #expect(purged.status < 300)
                        let new = try await Self.token(http, a)
                        #expect(new != old)
                        let fetches = upstream.requestCount
                        let answer = try await http.answer(b.url + "?since=\(old)")
                        #expect(answer.status == 200, "\(answer.text)")
                        let changes = try #require(try answer.json["changes"] as? [String: Any])
                        #expect(changes["from"] as? String == old)
                        #expect(changes["to"] as? String == new)
                        let patch = try #require(try answer.json["patch"] as? [[String: Any]])
                        #expect(ChangesCheck.counts(patch) == ["remove": 1, "add": 1, "replace": 0, "move": 0])
                        #expect(upstream.requestCount == fetches, "B answered from Redis")
                    }
                }
            }
        }
    }

    /// Watchers on two replicas: one refresh for both (the fill lock), and both get the event
    /// (the other replica through the store's `stored` event).
    @Test func watchersOnTwoReplicasShareOneRefresh() async throws {
        let list = ChangingList((0..<5).map { Self.item($0) })
        try await RedisServer.with { redis in
            try await withTestUpstream({ _ in .json(list.served()) }) { upstream in
                try await SharedStoreTests.withReplicas(
                    2, upstream: upstream, redis: redis,
                    route: "idField: id\ncache: { ttl: 3s, staleWhileRevalidate: 0s, staleIfError: 0s }"
                ) { replicas in
                    let token = try await withHTTPClient { try await Self.token($0, replicas[0]) }
                    var streams: [EventStreamClient] = []
                    for replica in replicas {
                        streams.append(
                            try await EventStreamClient.open(port: replica.client, "/objects?since=\(token)"))
                    }
                    for stream in streams { _ = try await stream.waitForEvents(1) }
                    list.items.withLock { $0[1] = Self.item(1, "v2") }
                    for stream in streams {
                        let event = try await stream.waitForEvents(2)[1]
                        #expect(ChangesCheck.counts(event.patch) == ["remove": 0, "add": 0, "replace": 1, "move": 0])
                    }
                    // Each freshness period (3 s) is one refresh for both replicas: two replicas
                    // refreshing on their own would fetch within milliseconds of each other.
                    #expect(list.closestFetches > .seconds(1), "one refresh for the watchers of both replicas")
                    for stream in streams { await stream.close() }
                }
            }
        }
    }
}
