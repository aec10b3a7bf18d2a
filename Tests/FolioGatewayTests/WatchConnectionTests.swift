import Foundation
import Testing

@testable import FolioGateway

/// docs/API.md, "Watching a list": a stream has its connection to itself, however the
/// connection was used before, and a refused stream request ends its connection; a stream asked
/// for behind an answer still owed waits its turn (Hummingbird's responder writes it).
@Suite struct WatchConnectionTests {
    typealias ChangingList = GatewayChangesTests.ChangingList
    static let item = GatewayWatchTests.item

    static func watchRequest(_ token: String) -> String {
        "GET /objects?since=\(token) HTTP/1.1\r\nHost: folio\r\nAccept: text/event-stream\r\n\r\n"
    }

    static func snapshotToken(in text: String) throws -> String {
        let match = try #require(text.firstMatch(of: /"snapshot":"([^"]+)"/))
        return String(match.output.1)
    }

    /// A connection whose first request went to the responder (a fill) and whose second was
    /// answered at once carries a stream next: its events come, and a change is one.
    @Test func aStreamFollowsEarlierRequestsOnItsConnection() async throws {
        let list = ChangingList((0..<4).map { Self.item($0, "v1") })
        try await withTestUpstream({ _ in .json(list.body) }) { upstream in
            _ = try await withFolio(GatewayWatchTests.yaml(upstream)) { folio in
                let connection = try await RawConnection.open(port: folio.clientPort)
                let page = "GET /objects?pageSize=1 HTTP/1.1\r\nHost: folio\r\n\r\n"
                try await connection.send(page)
                #expect(await connection.waitFor("\"snapshot\""))
                try await connection.send(page)
                try await waitUntil("two answers") {
                    connection.received.components(separatedBy: "HTTP/1.1 200").count == 3
                }
                let token = try Self.snapshotToken(in: connection.received)
                try await connection.send(Self.watchRequest(token))
                let stream = EventStreamClient(connection: connection)
                _ = try await stream.waitForEvents(1)
                #expect(connection.received.lowercased().contains("transfer-encoding: chunked"))
                list.items.withLock { $0[2] = Self.item(2, "v2") }
                let events = try await stream.waitForEvents(2)
                #expect(ChangesCheck.counts(events[1].patch) == ["remove": 0, "add": 0, "replace": 1, "move": 0])
                await connection.close()
                try await waitUntil("the stream is freed") { folio.server.gateway.watches.openStreams == 0 }
            }
        }
    }

    /// A stream request refused before the stream starts ends its connection after the
    /// problem (`Connection: close`): what the client sent after it is not answered.
    @Test func aRefusedStreamRequestEndsItsConnection() async throws {
        let list = ChangingList((0..<3).map { Self.item($0, "v1") })
        try await withTestUpstream({ _ in .json(list.body) }) { upstream in
            _ = try await withFolio(GatewayWatchTests.yaml(upstream)) { folio in
                _ = try await GatewayWatchTests.token(folio)
                let connection = try await RawConnection.open(port: folio.clientPort)
                try await connection.send(
                    Self.watchRequest("AAAAAAAAAAAAAAAA") + "GET /objects?pageSize=1 HTTP/1.1\r\nHost: folio\r\n\r\n")
                #expect(await connection.waitForClose())
                let received = connection.received
                #expect(received.hasPrefix("HTTP/1.1 410"))
                #expect(received.lowercased().contains("connection: close"))
                #expect(received.components(separatedBy: "HTTP/1.1 ").count == 2, "one answer: \(received)")
                #expect(folio.server.gateway.watches.openStreams == 0)
            }
        }
    }

    /// Pipelined behind a request the responder answers, the stream
    /// comes after that answer, and its events follow changes as any stream's do.
    @Test func aStreamPipelinedBehindAnOwedAnswerWaitsItsTurn() async throws {
        let list = ChangingList((0..<4).map { Self.item($0, "v1") })
        try await withTestUpstream({ _ in .json(list.body) }) { upstream in
            // Hummingbird's responder finds a gone client at its next write: a heartbeat.
            let yaml = GatewayWatchTests.yaml(upstream, server: "watch: { heartbeat: 200ms }")
            _ = try await withFolio(yaml) { folio in
                let token = try await GatewayWatchTests.token(folio)
                let connection = try await RawConnection.open(port: folio.clientPort)
                // A request that announces a body is the responder's: the stream is behind it.
                try await connection.send(
                    "GET /objects?pageSize=2 HTTP/1.1\r\nHost: folio\r\nContent-Length: 0\r\n\r\n"
                        + Self.watchRequest(token))
                let stream = EventStreamClient(connection: connection)
                _ = try await stream.waitForEvents(1)
                let received = connection.received
                let page = try #require(received.range(of: "\"snapshot\""))
                let event = try #require(received.range(of: "event: changes"))
                #expect(page.lowerBound < event.lowerBound, "the page's answer comes first")
                list.items.withLock { $0.append(Self.item(7, "v1")) }
                let events = try await stream.waitForEvents(2)
                #expect(ChangesCheck.counts(events[1].patch) == ["remove": 0, "add": 1, "replace": 0, "move": 0])
                await connection.close()
                try await waitUntil("the stream is freed") { folio.server.gateway.watches.openStreams == 0 }
            }
        }
    }
}
