import NIOHTTP1
import Testing

@testable import FolioGateway

@Suite("ProxyHeaders")
struct ProxyHeadersTests {
    private func pairs(_ headers: HTTPHeaders) -> [String] {
        headers.map { "\($0.name): \($0.value)" }
    }

    @Test func removesHopByHopHeadersAndThoseConnectionNames() {
        var headers: HTTPHeaders = [
            "Accept": "application/json",
            "Connection": "X-Secret, keep-alive",
            "connection": "Other-One",
            "X-Secret": "1",
            "other-one": "2",
            "Keep-Alive": "timeout=5",
            "TE": "trailers",
            "Trailer": "X-Checksum",
            "Transfer-Encoding": "chunked",
            "Upgrade": "websocket",
            "Proxy-Authorization": "Basic abc",
            "Proxy-Connection": "keep-alive",
            "PROXY-Anything": "x",
            "X-Proxy-Id": "kept, not a Proxy-* field",
            "Cache-Control": "no-cache",
        ]
        ProxyHeaders.removeHopByHop(&headers)
        #expect(
            pairs(headers) == [
                "Accept: application/json", "X-Proxy-Id: kept, not a Proxy-* field", "Cache-Control: no-cache",
            ])
    }

    @Test func leavesEndToEndHeadersAlone() {
        let original: HTTPHeaders = ["Authorization": "Bearer t", "Cookie": "a=1", "Link": "</x>; rel=next"]
        var headers = original
        ProxyHeaders.removeHopByHop(&headers)
        #expect(pairs(headers) == pairs(original))
    }

    @Test func upstreamRequestDropsHostEncodingAndHopByHop() {
        let client: HTTPHeaders = [
            "Host": "public.example.com",
            "Accept-Encoding": "br, gzip",
            "Connection": "X-Secret",
            "X-Secret": "1",
            "Content-Length": "12",
            "Authorization": "Bearer t",
            "X-Request-ID": "client-chosen",
            "x-request-id": "second",
        ]
        let headers = ProxyHeaders.upstreamRequestHeaders(
            from: client, peer: "192.0.2.7", peerIsTrusted: false, requestID: "rid-1")
        #expect(!headers.contains(name: "host"))
        #expect(!headers.contains(name: "accept-encoding"))
        #expect(!headers.contains(name: "connection"))
        #expect(!headers.contains(name: "x-secret"))
        #expect(headers["content-length"] == ["12"])
        #expect(headers["authorization"] == ["Bearer t"])
        #expect(headers["x-request-id"] == ["rid-1"])
    }

    @Test func untrustedPeerReplacesTheForwardingChain() {
        let client: HTTPHeaders = [
            "X-Forwarded-For": "203.0.113.9",
            "x-forwarded-for": "10.0.0.1",
            "Forwarded": "for=203.0.113.9",
            "X-Forwarded-Host": "evil.example",
            "X-Forwarded-Proto": "https",
        ]
        let headers = ProxyHeaders.upstreamRequestHeaders(
            from: client, peer: "192.0.2.7", peerIsTrusted: false, requestID: "r")
        #expect(headers["x-forwarded-for"] == ["192.0.2.7"])
        #expect(!headers.contains(name: "forwarded"))
        #expect(!headers.contains(name: "x-forwarded-host"))
        #expect(!headers.contains(name: "x-forwarded-proto"))
    }

    @Test func trustedPeerIsAppendedToTheForwardingChain() {
        let client: HTTPHeaders = [
            "X-Forwarded-For": "203.0.113.9, 198.51.100.2",
            "x-forwarded-for": "10.0.0.1",
            "Forwarded": "for=203.0.113.9;proto=https",
            "X-Forwarded-Proto": "https",
        ]
        let headers = ProxyHeaders.upstreamRequestHeaders(
            from: client, peer: "10.1.2.3", peerIsTrusted: true, requestID: "r")
        #expect(headers["x-forwarded-for"] == ["203.0.113.9, 198.51.100.2, 10.0.0.1, 10.1.2.3"])
        #expect(headers["forwarded"] == ["for=203.0.113.9;proto=https"])
        #expect(headers["x-forwarded-proto"] == ["https"])
    }

    @Test func trustedPeerWithoutAChainStartsOne() {
        let headers = ProxyHeaders.upstreamRequestHeaders(
            from: [:], peer: "::1", peerIsTrusted: true, requestID: "r")
        #expect(headers["x-forwarded-for"] == ["::1"])
    }

    @Test func unknownPeerAddsNothing() {
        let untrusted = ProxyHeaders.upstreamRequestHeaders(
            from: ["X-Forwarded-For": "203.0.113.9"], peer: nil, peerIsTrusted: false, requestID: "r")
        #expect(!untrusted.contains(name: "x-forwarded-for"))
        let trusted = ProxyHeaders.upstreamRequestHeaders(
            from: ["X-Forwarded-For": "203.0.113.9"], peer: nil, peerIsTrusted: true, requestID: "r")
        #expect(trusted["x-forwarded-for"] == ["203.0.113.9"])
    }

    @Test func clientResponseDropsFramingEncodingAndHopByHop() {
        let upstream: HTTPHeaders = [
            "Content-Type": "application/json",
            "Content-Length": "123",
            "Content-Encoding": "gzip",
            "Transfer-Encoding": "chunked",
            "Connection": "keep-alive, X-Backend",
            "X-Backend": "node-3",
            "Set-Cookie": "a=1",
            "Set-Cookie": "b=2",
            "ETag": "\"v1\"",
        ]
        let headers = ProxyHeaders.clientResponseHeaders(from: upstream)
        #expect(
            pairs(headers) == ["Content-Type: application/json", "Set-Cookie: a=1", "Set-Cookie: b=2", "ETag: \"v1\""])
    }
}
