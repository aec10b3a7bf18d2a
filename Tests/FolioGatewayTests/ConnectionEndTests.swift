import Foundation
import NIOCore
import Testing

@testable import FolioGateway

/// docs/API.md, "Connections" (RFC 9112 9.3, 9.6), over raw sockets against a real gateway:
/// after the answer to a request that ends its connection, Folio says `Connection: close`,
/// closes, and reads, answers and counts nothing more, however the bytes arrive, whether the
/// list is cached (the front door's path) or not (the decoder's). One request, one answer.
@Suite("Connections that end")
struct ConnectionEndTests {
    static let get = "GET /objects?pageSize=2 HTTP/1.1\r\nHost: folio\r\n\r\n"

    /// Every spelling of "close after this": `Connection` in any case or in a list,
    /// `Proxy-Connection`, HTTP/1.0 without keep-alive.
    static let closing = [
        "GET /objects?pageSize=2 HTTP/1.1\r\nHost: folio\r\nConnection: close\r\n\r\n",
        "GET /objects?pageSize=2 HTTP/1.1\r\nHost: folio\r\nConnection: Close\r\n\r\n",
        "GET /objects?pageSize=2 HTTP/1.1\r\nHost: folio\r\nConnection: keep-alive, close\r\n\r\n",
        "GET /objects?pageSize=2 HTTP/1.1\r\nHost: folio\r\nProxy-Connection: close\r\n\r\n",
        "GET /objects?pageSize=2 HTTP/1.0\r\nHost: folio\r\n\r\n",
    ]

    static func requests(_ server: FolioServer) throws -> Double {
        let samples = try PrometheusSamples(String(decoding: server.metrics.registry.emitToBuffer(), as: UTF8.self))
        return ["1xx", "2xx", "3xx", "4xx", "5xx"].reduce(0) {
            $0 + samples.value("folio_requests_total", ["route": "objects", "status_class": $1])
                + samples.value("folio_requests_total", ["route": "none", "status_class": $1])
        }
    }

    static func answers(_ text: String) -> Int {
        text.components(separatedBy: "HTTP/1.1 ").count - 1
    }

    static func saysClose(_ text: String) -> Bool {
        text.lowercased().contains("\r\nconnection: close\r\n")
    }

    /// Sends `first`, then `then` (in the same write, or 150 ms later), and returns what came
    /// back once the server closed.
    static func exchange(port: Int, _ first: String, then: String, apart: Bool) async throws -> (String, Bool) {
        let connection = try await RawConnection.open(port: port)
        if apart {
            try await connection.send(first)
            _ = await connection.waitFor("\r\n\r\n", limit: .seconds(10))
            try await Task.sleep(for: .milliseconds(150))
            try? await connection.send(then)
        } else {
            try await connection.send(first + then)
        }
        let closed = await connection.waitForClose()
        return (connection.received, closed)
    }

    @Test(arguments: closing)
    func nothingIsReadAfterAClosingRequest(_ request: String) async throws {
        try await withTestUpstream(KeptAnswerHandlerTests.upstream) { upstream in
            for warm in [false, true] {
                for apart in [false, true] {
                    try await withGateway(KeptAnswerHandlerTests.yaml(upstream.baseURL)) { client, server in
                        let port = try #require(client.port)
                        if warm { _ = try await client.execute(uri: "/objects?pageSize=2", method: .get) }
                        let before = try Self.requests(server)
                        let then = String(repeating: Self.get, count: 50)
                        let (received, closed) = try await Self.exchange(port: port, request, then: then, apart: apart)
                        let label = "warm \(warm), apart \(apart): \(received.prefix(300))"
                        #expect(closed, "\(label)")
                        #expect(Self.answers(received) == 1, "\(label)")
                        #expect(received.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(label)")
                        #expect(Self.saysClose(received), "\(label)")
                        #expect(try Self.requests(server) - before == 1, "\(label)")
                    }
                }
            }
        }
    }

    /// Framing a proxy refuses: one 400 with `Connection: close`, and the connection closed.
    @Test(arguments: [
        "GET /objects HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
        "GET /objects HTTP/1.1\r\nHost: a b\r\n\r\n",
        "POST /objects HTTP/1.1\r\nHost: folio\r\nTransfer-Encoding: identity, chunked\r\n\r\n0\r\n\r\n",
        "POST /objects HTTP/1.1\r\nHost: folio\r\nTransfer-Encoding: identity\r\n\r\n{}",
        "POST /objects HTTP/1.0\r\nHost: folio\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    ])
    func badFramingIsOne400AndAClose(_ request: String) async throws {
        try await withTestUpstream(KeptAnswerHandlerTests.upstream) { upstream in
            try await withGateway(KeptAnswerHandlerTests.yaml(upstream.baseURL)) { client, _ in
                _ = try await client.execute(uri: "/objects?pageSize=2", method: .get)
                let (received, closed) = try await Self.exchange(
                    port: try #require(client.port), request, then: Self.get, apart: false)
                #expect(closed, "\(received)")
                #expect(Self.answers(received) == 1, "\(received)")
                #expect(received.hasPrefix("HTTP/1.1 400 "), "\(received)")
                #expect(Self.saysClose(received), "\(received)")
                #expect(upstream.requests.allSatisfy { $0.method == "GET" }, "nothing was forwarded")
            }
        }
    }

    /// `Upgrade` is not supported: answered as plain HTTP/1.1, then closed, never left hanging.
    @Test(arguments: ["h2c", "websocket"])
    func anUpgradeIsAnsweredPlainAndClosed(_ protocolName: String) async throws {
        try await withTestUpstream(KeptAnswerHandlerTests.upstream) { upstream in
            try await withGateway(KeptAnswerHandlerTests.yaml(upstream.baseURL)) { client, _ in
                let request =
                    "GET /objects?pageSize=2 HTTP/1.1\r\nHost: folio\r\nConnection: Upgrade\r\nUpgrade: \(protocolName)\r\n\r\n"
                let (received, closed) = try await Self.exchange(
                    port: try #require(client.port), request, then: Self.get, apart: true)
                #expect(closed, "\(received)")
                #expect(Self.answers(received) == 1, "\(received)")
                #expect(received.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(received)")
                #expect(Self.saysClose(received))
            }
        }
    }

    /// `CONNECT`, and methods the HTTP parser does not know (lower-case `get` too): 405 with
    /// `Allow` and a problem body, then a close; nothing forwarded.
    @Test(arguments: [
        "CONNECT /objects HTTP/1.1\r\nHost: folio\r\n\r\n",
        "CONNECT folio:443 HTTP/1.1\r\nHost: folio\r\n\r\n",
        "FOO /objects HTTP/1.1\r\nHost: folio\r\n\r\n",
        "get /objects HTTP/1.1\r\nHost: folio\r\n\r\n",
        "PRI /objects HTTP/1.1\r\nHost: folio\r\n\r\n",
    ])
    func refusedMethodsAre405WithAllow(_ request: String) async throws {
        try await withTestUpstream(KeptAnswerHandlerTests.upstream) { upstream in
            try await withGateway(KeptAnswerHandlerTests.yaml(upstream.baseURL)) { client, server in
                let before = try Self.requests(server)
                let (received, closed) = try await Self.exchange(
                    port: try #require(client.port), request, then: Self.get, apart: false)
                #expect(closed, "\(received)")
                #expect(Self.answers(received) == 1, "\(received)")
                #expect(received.hasPrefix("HTTP/1.1 405 "), "\(received)")
                let head = received.components(separatedBy: "\r\n\r\n")[0].lowercased()
                #expect(head.contains("\r\nallow: get, head"), "\(head)")
                #expect(head.contains("\r\ncontent-type: application/problem+json"), "\(head)")
                #expect(Self.saysClose(received))
                #expect(received.contains(#""type":"urn:folio:problem:method-not-allowed""#))
                #expect(upstream.requests.isEmpty)
                #expect(try Self.requests(server) - before == 1, "counted like every answer")
            }
        }
    }

    /// A request line up to `maxURLBytes` is read and answered; past it, a 414 problem (not a
    /// bare 400), however long the line and however it arrives: up to twice the limit by the
    /// gateway on a connection that stays open, past that by the front door, which closes (the
    /// rest of the line may still be coming).
    @Test func longTargetsAreServedUpToTheLimitThen414() async throws {
        try await withTestUpstream(KeptAnswerHandlerTests.upstream) { upstream in
            let yaml = KeptAnswerHandlerTests.yaml(upstream.baseURL) + "\nlimits: { maxURLBytes: 512KiB }"
            try await withGateway(yaml) { client, _ in
                let port = try #require(client.port)
                let cases = [
                    (100_000, "200", false), (600_000, "414", false), (1_100_000, "414", true),
                    (4_000_000, "414", true),
                ]
                for (padding, status, closes) in cases {
                    for warm in [false, true] {
                        let label = "\(padding), warm \(warm)"
                        let target = "/objects?pageSize=2&x=" + String(repeating: "a", count: padding)
                        if warm { _ = try await client.execute(uri: "/objects?pageSize=2", method: .get) }
                        let connection = try await RawConnection.open(port: port)
                        try? await connection.send("GET \(target) HTTP/1.1\r\nHost: folio\r\n\r\n")
                        #expect(
                            await connection.waitFor("HTTP/1.1 \(status) "),
                            "\(label): \(connection.received.prefix(200))")
                        if status == "414" {
                            #expect(await connection.waitFor(#""type":"urn:folio:problem:uri-too-long""#), "\(label)")
                        }
                        if closes {
                            #expect(await connection.waitForClose(), "\(label)")
                            #expect(Self.saysClose(connection.received), "\(label)")
                        } else {
                            try await connection.send(Self.get)
                            #expect(await connection.waitFor("HTTP/1.1 200 OK"), "\(label): the connection goes on")
                        }
                        await connection.close()
                    }
                }
            }
        }
    }

    /// The admin listener ends a header trickle like the client listener does.
    @Test func theAdminListenerHasTheIdleTimeout() async throws {
        try await withTestUpstream(KeptAnswerHandlerTests.upstream) { upstream in
            let yaml = gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true, server: "idleTimeout: 1s")
            _ = try await withFolio(yaml) { ops in
                let connection = try await RawConnection.open(port: ops.adminPort)
                let request = Array(
                    "GET /livez HTTP/1.1\r\nHost: folio\r\nX-Pad: " + String(repeating: "a", count: 200))
                for character in request where !connection.isClosed {
                    try? await connection.send(String(character))
                    try await Task.sleep(for: .milliseconds(100))
                }
                #expect(connection.isClosed, "closed while the trickle went on")
                await connection.close()
            }
        }
    }
}
