import FolioEngine
import Foundation
import Synchronization
import Testing

@testable import FolioGateway

/// docs/API.md, "Watching a list": event streams against a real upstream whose list changes,
/// on a real server (`ServerLifecycle`, so SIGTERM's drain is the real one).
@Suite struct GatewayWatchTests {
    typealias ChangingList = GatewayChangesTests.ChangingList

    static func yaml(_ upstream: TestUpstream, ttl: String = "1s", server: String = "") -> String {
        gatewayYAML(
            upstream: upstream.baseURL, admin: true, server: server,
            route: "idField: id\ncache: { ttl: \(ttl), staleWhileRevalidate: 0s, staleIfError: 0s }")
    }

    static func item(_ id: Int, _ version: String = "v1") -> String { #"{"id":\#(id),"v":"\#(version)"}"# }

    static func token(_ folio: RunningFolio) async throws -> String {
        let page = try await folio.get("\(folio.client)/objects?pageSize=1")
        return try #require(try (page.json["paging"] as? [String: Any])?["snapshot"] as? String)
    }

    /// The first event comes at once; a change upstream becomes an event with no client request:
    /// Folio refreshes the watched list itself when its freshness ends.
    @Test func firstEventAtOnceThenAnEventPerNewSnapshotWithoutRequests() async throws {
        let list = ChangingList((0..<5).map { Self.item($0) })
        try await withTestUpstream({ _ in .json(list.body) }) { upstream in
            _ = try await withFolio(Self.yaml(upstream)) { folio in
                let token = try await Self.token(folio)
                let stream = try await EventStreamClient.open(port: folio.clientPort, "/objects?since=\(token)")
                let first = try await stream.waitForEvents(1)[0]
                let head = try #require(stream.head)
                #expect(head.hasPrefix("HTTP/1.1 200"))
                #expect(head.lowercased().contains("content-type: text/event-stream"))
                #expect(head.lowercased().contains("cache-control: no-store"))
                #expect(!head.lowercased().contains("content-encoding"))
                #expect(first.id == token)
                #expect(first.patch.isEmpty)

                list.items.withLock {
                    $0.remove(at: 1)
                    $0.append(Self.item(9))
                }
                let second = try await stream.waitForEvents(2)[1]
                #expect(second.from == token)
                #expect(second.id != token)
                #expect(ChangesCheck.counts(second.patch) == ["remove": 1, "add": 1, "replace": 0, "move": 0])
                #expect(second.data.contains(Self.item(9)), "values are the upstream's bytes")

                let metrics = try await folio.metrics()
                #expect(metrics.value("folio_watch_streams", ["route": "objects"]) == 1)
                #expect(metrics.value("folio_watch_events_total", ["route": "objects"]) >= 2)
                await stream.close()
            }
        }
    }

    /// Three watchers of one key: one refresh for all of them, one upstream fetch per change.
    @Test func threeWatchersShareOneRefresh() async throws {
        let list = ChangingList((0..<5).map { Self.item($0) })
        try await withTestUpstream({ _ in .json(list.served()) }) { upstream in
            _ = try await withFolio(Self.yaml(upstream, ttl: "3s")) { folio in
                let token = try await Self.token(folio)
                var streams: [EventStreamClient] = []
                for query in ["", "", "fields=id&"] {
                    streams.append(
                        try await EventStreamClient.open(port: folio.clientPort, "/objects?\(query)since=\(token)"))
                }
                for stream in streams { _ = try await stream.waitForEvents(1) }
                list.items.withLock { $0[2] = Self.item(2, "v2") }
                for stream in streams {
                    let event = try await stream.waitForEvents(2)[1]
                    #expect(ChangesCheck.counts(event.patch)["replace"] == (event.data.contains("v2") ? 1 : 0))
                }
                // One refresh per freshness period (3 s) for the three: a refresh per watcher
                // would fetch within milliseconds of another.
                #expect(list.closestFetches > .seconds(1), "one refresh for the three watchers")
                #expect(upstream.requestCount >= 2)
                for stream in streams { await stream.close() }
            }
        }
    }

    /// `Last-Event-ID` replaces `since`: a reconnecting client goes on from its last event.
    @Test func lastEventIDResumes() async throws {
        let list = ChangingList((0..<4).map { Self.item($0) })
        try await withTestUpstream({ _ in .json(list.body) }) { upstream in
            _ = try await withFolio(Self.yaml(upstream, ttl: "0s")) { folio in
                let old = try await Self.token(folio)
                list.items.withLock { $0.append(Self.item(4)) }
                let newer = try await Self.token(folio)
                #expect(newer != old)
                let resumed = try await EventStreamClient.open(
                    port: folio.clientPort, "/objects?since=\(old)", lastEventID: newer)
                let first = try await resumed.waitForEvents(1)[0]
                #expect(first.from == newer)
                await resumed.close()
                let fresh = try await EventStreamClient.open(port: folio.clientPort, "/objects?since=\(old)")
                let fromOld = try await fresh.waitForEvents(1)[0]
                #expect(fromOld.from == old)
                #expect(ChangesCheck.counts(fromOld.patch)["add"] == 1)
                await fresh.close()
            }
        }
    }

    @Test func idleStreamsGetHeartbeats() async throws {
        let list = ChangingList((0..<3).map { Self.item($0) })
        try await withTestUpstream({ _ in .json(list.body) }) { upstream in
            _ = try await withFolio(Self.yaml(upstream, ttl: "60s", server: "watch:\n  heartbeat: 100ms")) { folio in
                let token = try await Self.token(folio)
                let stream = try await EventStreamClient.open(port: folio.clientPort, "/objects?since=\(token)")
                #expect(await stream.connection.waitFor(": keep-alive\n\n"))
                await stream.close()
            }
        }
    }

    /// One stream more than `maxWatchers` is a 503; a closed stream frees its place (within a
    /// heartbeat).
    @Test func streamsBeyondMaxWatchersAre503() async throws {
        let list = ChangingList((0..<3).map { Self.item($0) })
        try await withTestUpstream({ _ in .json(list.body) }) { upstream in
            let server = "watch:\n  maxWatchers: 1\n  heartbeat: 100ms"
            _ = try await withFolio(Self.yaml(upstream, ttl: "60s", server: server)) { folio in
                let token = try await Self.token(folio)
                let first = try await EventStreamClient.open(port: folio.clientPort, "/objects?since=\(token)")
                _ = try await first.waitForEvents(1)
                let refused = try await folio.get(
                    "\(folio.client)/objects?since=\(token)", headers: [("Accept", "text/event-stream")])
                #expect(refused.status == 503)
                #expect(refused.text.contains("too-many-watchers"))
                await first.close()
                try await waitUntil("the closed stream's place is free") {
                    folio.server.gateway.watches.openStreams == 0
                }
                let again = try await EventStreamClient.open(port: folio.clientPort, "/objects?since=\(token)")
                _ = try await again.waitForEvents(1)
                await again.close()
            }
        }
    }

    @Test func aGoneTokenIs410BeforeTheStream() async throws {
        let list = ChangingList((0..<3).map { Self.item($0) })
        try await withTestUpstream({ _ in .json(list.body) }) { upstream in
            _ = try await withFolio(Self.yaml(upstream)) { folio in
                _ = try await Self.token(folio)
                let gone = try await folio.get(
                    "\(folio.client)/objects?since=AAAAAAAAAAAAAAAA", headers: [("Accept", "text/event-stream")])
                #expect(gone.status == 410)
                #expect(folio.server.gateway.watches.openStreams == 0)
            }
        }
    }

    /// SIGTERM ends every stream at once, and the drain counts them as finished (exit 0).
    @Test func sigtermEndsStreamsAtOnceAndTheDrainIsClean() async throws {
        let list = ChangingList((0..<3).map { Self.item($0) })
        try await withTestUpstream({ _ in .json(list.body) }) { upstream in
            let (stream, termination) = try await withFolio(
                Self.yaml(upstream, ttl: "60s", server: "drainTimeout: 30s")
            ) { folio in
                let token = try await Self.token(folio)
                let stream = try await EventStreamClient.open(port: folio.clientPort, "/objects?since=\(token)")
                _ = try await stream.waitForEvents(1)
                return stream
            }
            #expect(termination == .drained)
            #expect(stream.connection.received.hasSuffix("0\r\n\r\n"), "the stream ended as a whole answer")
            await stream.close()
        }
    }

    /// A purge drops the watched list: Folio refills it at once, and the new snapshot is an event.
    @Test func aPurgedWatchedListIsRefilledAtOnce() async throws {
        let list = ChangingList((0..<3).map { Self.item($0) })
        try await withTestUpstream({ _ in .json(list.body) }) { upstream in
            _ = try await withFolio(Self.yaml(upstream, ttl: "600s")) { folio in
                let token = try await Self.token(folio)
                let stream = try await EventStreamClient.open(port: folio.clientPort, "/objects?since=\(token)")
                _ = try await stream.waitForEvents(1)
                list.items.withLock { $0.append(Self.item(3)) }
                let purged = try await folio.post("\(folio.admin)/purge?route=objects")
                #expect(purged.status == 200 || purged.status == 204)
                let event = try await stream.waitForEvents(2)[1]
                #expect(ChangesCheck.counts(event.patch)["add"] == 1)
                await stream.close()
            }
        }
    }
}
