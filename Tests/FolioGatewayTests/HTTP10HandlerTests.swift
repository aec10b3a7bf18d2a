import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import FolioGateway

/// `HTTP10Handler`: an HTTP/1.0 request without keep-alive reaches Hummingbird with
/// `Connection: close`, every other request passes unchanged; answers to HTTP/1.0 keep-alive
/// requests say so.
@Suite("HTTP/1.0 requests and answers")
struct HTTP10HandlerTests {
    static func handedOn(_ head: HTTPRequestHead) throws -> HTTPRequestHead? {
        let channel = EmbeddedChannel(handler: HTTP10Handler())
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
        let channel = EmbeddedChannel(handler: HTTP10Handler())
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
}
