import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import FolioGateway

/// `HTTP10CloseHandler`: an HTTP/1.0 request without keep-alive reaches Hummingbird with
/// `Connection: close`; every other request passes unchanged.
@Suite("HTTP/1.0 connection close")
struct HTTP10CloseHandlerTests {
    static func handedOn(_ head: HTTPRequestHead) throws -> HTTPRequestHead? {
        let channel = EmbeddedChannel(handler: HTTP10CloseHandler())
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
}
