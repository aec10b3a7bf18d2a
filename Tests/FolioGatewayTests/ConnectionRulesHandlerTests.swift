import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import FolioGateway

/// `ConnectionRulesHandler`: a request after whose answer the connection ends reaches
/// Hummingbird with `Connection: close` and its answer says so; nothing after it is read; every
/// other request passes unchanged; answers to HTTP/1.0 keep-alive requests say keep-alive.
@Suite("Connection rules after the decoder")
struct ConnectionRulesHandlerTests {
    static func handedOn(_ head: HTTPRequestHead) throws -> HTTPRequestHead? {
        let channel = EmbeddedChannel(handler: ConnectionRulesHandler())
        defer { _ = try? channel.finish() }
        try channel.writeInbound(HTTPServerRequestPart.head(head))
        try channel.writeInbound(HTTPServerRequestPart.end(nil))
        guard case .head(let read) = try channel.readInbound(as: HTTPServerRequestPart.self) else { return nil }
        guard case .end = try channel.readInbound(as: HTTPServerRequestPart.self) else { return nil }
        return read
    }

    static func head(_ version: HTTPVersion, method: HTTPMethod = .GET, _ fields: [(String, String)]) -> HTTPRequestHead
    {
        HTTPRequestHead(version: version, method: method, uri: "/objects", headers: HTTPHeaders(fields))
    }

    @Test(arguments: [HTTPMethod.GET, .POST, .DELETE])
    func http10WithoutKeepAliveIsMarkedClosing(_ method: HTTPMethod) throws {
        let read = try #require(try Self.handedOn(Self.head(.http1_0, method: method, [("Host", "folio")])))
        #expect(read.headers["connection"] == ["close"])
        #expect(!read.isKeepAlive)
    }

    /// The fields the old `Connection` named are hop-by-hop: they go with it, or the proxy,
    /// no longer seeing them named, would forward them upstream.
    @Test func fieldsTheReplacedConnectionNamedAreRemoved() throws {
        let head = Self.head(.http1_0, [("Host", "folio"), ("Connection", "X-Trace, close"), ("X-Trace", "1")])
        let read = try #require(try Self.handedOn(head))
        #expect(read.headers["connection"] == ["close"])
        #expect(read.headers["x-trace"].isEmpty)
        #expect(read.headers["host"] == ["folio"])
    }

    @Test func otherRequestsPassUnchanged() throws {
        let unchanged = [
            Self.head(.http1_0, [("Host", "folio"), ("Connection", "keep-alive")]),
            Self.head(.http1_1, [("Host", "folio")]),
            Self.head(.http1_1, [("Host", "folio"), ("Connection", "close")]),
        ]
        for head in unchanged {
            #expect(try Self.handedOn(head) == head)
        }
    }

    /// The head written for `response` after a request `head` was read, and whether the
    /// channel is still open once the answer ended.
    static func answered(
        _ head: HTTPRequestHead, with response: HTTPResponseHead, quiescing: Bool = false
    ) throws -> (HTTPResponseHead?, Bool) {
        let channel = EmbeddedChannel(handler: ConnectionRulesHandler())
        defer { _ = try? channel.finish() }
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        try channel.writeInbound(HTTPServerRequestPart.head(head))
        if quiescing { channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent()) }
        try channel.writeInbound(HTTPServerRequestPart.end(nil))
        try channel.writeOutbound(HTTPServerResponsePart.head(response))
        try channel.writeOutbound(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: "[]"))))
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        guard case .head(let written) = try channel.readOutbound(as: HTTPServerResponsePart.self) else {
            return (nil, channel.isActive)
        }
        return (written, channel.isActive)
    }

    static let sized = HTTPResponseHead(version: .http1_1, status: .ok, headers: ["content-length": "2"])
    static let closing = HTTPResponseHead(
        version: .http1_1, status: .ok, headers: ["content-length": "2", "connection": "close"])

    @Test func aKeepAliveAnswerSaysSo() throws {
        let request = Self.head(.http1_0, [("Host", "folio"), ("Connection", "keep-alive")])
        let (written, open) = try Self.answered(request, with: Self.sized)
        #expect(written?.headers["connection"] == ["keep-alive"])
        #expect(written?.version == .http1_1)
        #expect(open)
    }

    /// While the server shuts down, the connection closes after the answer in flight: the
    /// answer says so instead of promising keep-alive.
    @Test func anAnswerDuringShutdownSaysClose() throws {
        let request = Self.head(.http1_0, [("Host", "folio"), ("Connection", "keep-alive")])
        let (written, _) = try Self.answered(request, with: Self.sized, quiescing: true)
        #expect(written?.headers["connection"] == ["close"])
    }

    /// An answer that closes its connection anyway is not marked keep-alive.
    @Test func aClosingAnswerStaysClosing() throws {
        let request = Self.head(.http1_0, [("Host", "folio"), ("Connection", "keep-alive")])
        let (written, _) = try Self.answered(request, with: Self.closing)
        #expect(written == Self.closing)
    }

    @Test func answersToHTTP11PassUnchanged() throws {
        let request = Self.head(.http1_1, [("Host", "folio")])
        for response in [Self.sized, Self.closing] {
            let (written, open) = try Self.answered(request, with: response)
            #expect(written == response)
            #expect(open)
        }
    }

    /// Requests after whose answer the connection ends: Hummingbird sees exactly
    /// `Connection: close` (it closes on nothing else), and the answer says so.
    @Test(arguments: [
        (HTTPVersion.http1_1, HTTPMethod.GET, [("Host", "folio"), ("Connection", "Close")]),
        (.http1_1, .GET, [("Host", "folio"), ("Connection", "keep-alive, close")]),
        (.http1_1, .GET, [("Host", "folio"), ("Proxy-Connection", "close")]),
        (.http1_1, .GET, [("Host", "folio"), ("Connection", "Upgrade"), ("Upgrade", "h2c")]),
        (.http1_1, .CONNECT, [("Host", "folio")]),
        (.http1_1, .GET, [("Host", "a b")]),
        (.http1_1, .GET, [("Host", "a"), ("Host", "b")]),
        (.http1_1, .POST, [("Host", "folio"), ("Transfer-Encoding", "identity, chunked")]),
        (.http1_0, .POST, [("Host", "folio"), ("Connection", "keep-alive"), ("Transfer-Encoding", "chunked")]),
        (.http1_0, .GET, [("Host", "folio")]),
    ])
    func requestsThatEndTheConnectionSaySo(_ version: HTTPVersion, _ method: HTTPMethod, _ fields: [(String, String)])
        throws
    {
        let request = Self.head(version, method: method, fields)
        let read = try #require(try Self.handedOn(request))
        #expect(read.headers["connection"] == ["close"])
        let (written, _) = try Self.answered(request, with: Self.sized)
        #expect(written?.headers["connection"] == ["close"])
    }

    /// Framing only the version shows, or that Hummingbird's request no longer shows (the
    /// first `Host` becomes its authority), is marked for the gateway's 400; a client's own mark
    /// is removed.
    @Test func framingFaultsAreMarkedAndAClientsMarkIsRemoved() throws {
        let cases: [(HTTPRequestHead, String?)] = [
            (Self.head(.http1_1, [("Host", "a b")]), "invalid-host"),
            (Self.head(.http1_1, []), "missing-host"),
            (Self.head(.http1_0, [("Host", "folio"), ("Transfer-Encoding", "chunked")]), "coding-on-http10"),
            (Self.head(.http1_1, [("Host", "folio"), (RequestFraming.mark, "two-hosts")]), nil),
            (Self.head(.http1_1, [("Host", "folio:8080")]), nil),
            (Self.head(.http1_1, [("Host", "[::1]:80")]), nil),
        ]
        for (request, mark) in cases {
            let read = try #require(try Self.handedOn(request))
            #expect(read.headers[RequestFraming.mark] == (mark.map { [$0] } ?? []), "\(request.headers)")
        }
    }

    /// Once a closing request's end is read, nothing more is: a request pipelined behind it in
    /// the same bytes, and a parse error after it, reach nobody.
    @Test func nothingAfterAClosingRequestIsRead() throws {
        let state = ConnectionState()
        let channel = EmbeddedChannel(handler: ConnectionRulesHandler(state: state))
        defer { _ = try? channel.finish() }
        try channel.writeInbound(
            HTTPServerRequestPart.head(Self.head(.http1_1, [("Host", "f"), ("Connection", "close")])))
        #expect(!state.inputEnded, "the closing request is still being read")
        try channel.writeInbound(HTTPServerRequestPart.end(nil))
        #expect(state.inputEnded)
        try channel.writeInbound(HTTPServerRequestPart.head(Self.head(.http1_1, [("Host", "f")])))
        try channel.writeInbound(HTTPServerRequestPart.end(nil))
        channel.pipeline.fireErrorCaught(HTTPParserError.invalidMethod)
        #expect(throws: Never.self) { try channel.throwIfErrorCaught() }
        var parts = 0
        while try channel.readInbound(as: HTTPServerRequestPart.self) != nil { parts += 1 }
        #expect(parts == 2, "the closing request's head and end only")
    }

    /// The pure rules, as a table.
    @Test func theRulesTable() {
        func head(
            _ isHTTP10: Bool = false, method: String = "GET", connection: [String] = [],
            proxy: [String] = [], hosts: [String] = ["folio"], coding: [String] = [], upgrade: Bool = false
        ) -> ConnectionRules.Head {
            .init(
                isHTTP10: isHTTP10, method: method, connection: connection, proxyConnection: proxy, hosts: hosts,
                transferEncoding: coding, hasUpgrade: upgrade)
        }
        let table: [(ConnectionRules.Head, ConnectionRules.Ending?)] = [
            (head(), nil),
            (head(connection: ["keep-alive"]), nil),
            (head(connection: ["x-close"]), nil),
            (head(connection: ["CLOSE"]), .asked),
            (head(connection: ["te", " close "]), .asked),
            (head(connection: ["te,close"]), .asked),
            (head(proxy: ["Close"]), .asked),
            (head(true), .asked),
            (head(true, connection: ["Keep-Alive"]), nil),
            (head(true, connection: ["keep-alive"], proxy: ["close"]), .asked),
            (head(true, hosts: []), .asked),
            (head(hosts: []), .framing(.missingHost)),
            (head(hosts: ["a", "a"]), .framing(.twoHosts)),
            (head(hosts: ["a b"]), .framing(.invalidHost)),
            (head(hosts: ["a@b"]), .framing(.invalidHost)),
            (head(hosts: ["a:99999x"]), .framing(.invalidHost)),
            (head(hosts: ["[::1"]), .framing(.invalidHost)),
            (head(hosts: [""]), nil),
            (head(hosts: ["xn--d-1ga.example:443"]), nil),
            (head(hosts: ["127.0.0.1:8080"]), nil),
            (head(coding: ["chunked"]), nil),
            (head(coding: ["Chunked "]), nil),
            (head(coding: ["identity"]), .framing(.transferCoding)),
            (head(coding: ["gzip", "chunked"]), .framing(.transferCoding)),
            (head(true, coding: ["chunked"]), .framing(.codingOnHTTP10)),
            (head(method: "CONNECT"), .connect),
            (head(upgrade: true), .upgrade),
        ]
        for (row, (given, expected)) in table.enumerated() {
            #expect(ConnectionRules.ending(given) == expected, "row \(row)")
        }
    }
}
