import FolioEngine
import Synchronization
import Testing

@testable import FolioGateway

/// The gateway keeps its snapshots in a `SnapshotStore`: a store shared by replicas answers
/// every replica's pinned links, and what requests build later counts against the bound.
@Suite("Snapshot store in the gateway")
struct SnapshotStoreTests {
    @Test func replicasSharingAStoreAnswerEachOthersPinnedLinksAfterTheUpstreamChanged() async throws {
        let version = Mutex("v1")
        try await withTestUpstream({ _ in .json(objectsBody(30, tag: version.withLock { $0 }).body) }) { upstream in
            let yaml = gatewayYAML(
                upstream: upstream.baseURL, route: "cache: { ttl: 0s, staleWhileRevalidate: 0s, staleIfError: 0s }")
            let store = MemorySnapshotStore(maxBytes: 64 << 20)
            try await withGateway(yaml, store: store) { replicaA, _ in
                try await withGateway(yaml, store: store) { replicaB, _ in
                    let first = try await replicaA.execute(uri: "/objects?pageSize=10", method: .get)
                    let oldToken = try #require(first.json.paging["snapshot"] as? String)
                    let next = try #require(first.json.paging["next"] as? String)

                    version.withLock { $0 = "v2" }
                    let refilled = try await replicaA.execute(uri: "/objects?pageSize=10", method: .get)
                    #expect(try refilled.json.paging["snapshot"] as? String != oldToken)
                    let fetches = upstream.requestCount

                    // Replica B never fetched v1, and the upstream no longer has it.
                    let pinned = try await replicaB.execute(uri: next, method: .get)
                    #expect(pinned.status == .ok)
                    #expect(try pinned.json.paging["snapshot"] as? String == oldToken)
                    #expect(try rawItems(pinned.text) == Array(objectsBody(30, tag: "v1").elements[10..<20]))
                    #expect(pinned.header("Cache-Status")?.hasPrefix("folio; hit; ttl=-") == true)
                    #expect(upstream.requestCount == fetches, "answered from the shared store")
                }
            }
        }
    }

    @Test func anOrderBuiltByARequestCountsAgainstTheBound() async throws {
        try await withTestUpstream({ request in
            .json(objectsBody(400, tag: String(request.path.split(separator: "/").last ?? "")).body)
        }) { upstream in
            let yaml = listsYAML(upstream: upstream.baseURL, maxBytes: "1MiB", route: "sortable: [name]")
            try await withGateway(yaml) { client, server in
                #expect(try await client.execute(uri: "/lists/a", method: .get).status == .ok)
                let before = await server.gateway.cache.statistics()
                let key = try server.gateway.cacheKey(route: "lists", upstreamURL: "\(upstream.baseURL)/list/a")
                let snapshot = try #require(await server.gateway.cache.current(key))
                #expect(before.bytes == snapshot.retainedBytes)

                let sorted = try await client.execute(uri: "/lists/a?sort=-name&pageSize=1", method: .get)
                #expect(sorted.status == .ok)
                let after = await server.gateway.cache.statistics()
                #expect(after.bytes > before.bytes, "the -name order (4 bytes an element and more) is counted")
                #expect(after.bytes == snapshot.retainedBytes)
                #expect(after.snapshots == before.snapshots)
            }
        }
    }
}
