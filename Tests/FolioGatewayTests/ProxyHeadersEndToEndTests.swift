import NIOHTTP1
import Testing

@testable import FolioGateway

/// Client headers cleaned by `ProxyHeaders` and sent by `UpstreamClient`, as a real upstream
/// receives them (AsyncHTTPClient itself forwards whatever it is given).
@Suite("ProxyHeaders end to end")
struct ProxyHeadersEndToEndTests {
    private let client: HTTPHeaders = [
        "Host": "public.example.com",
        "Connection": "X-Secret",
        "X-Secret": "1",
        "Keep-Alive": "timeout=5",
        "Proxy-Authorization": "Basic abc",
        "TE": "trailers",
        "Accept-Encoding": "br",
        "Accept": "application/json",
        "X-Forwarded-For": "203.0.113.9",
        "Forwarded": "for=203.0.113.9",
        "X-Request-ID": "bad id with spaces",
    ]

    private func checkCommon(_ request: TestUpstream.Recorded, port: Int, requestID: String) {
        for name in ["connection", "x-secret", "keep-alive", "proxy-authorization", "te"] {
            #expect(request.headerValues(name).isEmpty, "\(name) reached the upstream")
        }
        #expect(request.headerValues("host") == ["127.0.0.1:\(port)"])
        #expect(request.headerValues("accept-encoding") == ["gzip, deflate"])
        #expect(request.headerValues("accept") == ["application/json"])
        #expect(request.headerValues("x-request-id") == [requestID])
    }

    @Test(arguments: [false, true])
    func getSendsCleanHeaders(trusted: Bool) async throws {
        let requestID = RequestID.accept(client.first(name: "x-request-id"))
        #expect(requestID != "bad id with spaces")
        let headers = ProxyHeaders.upstreamRequestHeaders(
            from: client, peer: "192.0.2.7", peerIsTrusted: trusted, requestID: requestID)
        try await withTestUpstream({ _ in .json("[]") }) { upstream in
            try await withUpstreamClient { client in
                _ = try await client.getRecording(upstream.baseURL + "/list", headers: headers)
                let request = try #require(upstream.requests.first)
                checkCommon(request, port: upstream.port, requestID: requestID)
                #expect(request.headerValues("x-forwarded-for") == [trusted ? "203.0.113.9, 192.0.2.7" : "192.0.2.7"])
                #expect(request.headerValues("forwarded") == (trusted ? ["for=203.0.113.9"] : []))
            }
        }
    }

    @Test func forwardSendsCleanHeadersAndKeepsAValidRequestID() async throws {
        var incoming = client
        incoming.replaceOrAdd(name: "X-Request-ID", value: "trace.42-A_b")
        incoming.add(name: "Content-Length", value: "3")
        let requestID = RequestID.accept(incoming.first(name: "x-request-id"))
        #expect(requestID == "trace.42-A_b")
        let headers = ProxyHeaders.upstreamRequestHeaders(
            from: incoming, peer: "192.0.2.7", peerIsTrusted: false, requestID: requestID)
        try await withTestUpstream({ _ in TestUpstream.Reply(status: 204) }) { upstream in
            try await withUpstreamClient { client in
                _ = try await client.forward(
                    method: .POST, url: upstream.baseURL + "/list", headers: headers,
                    body: ChunkedBody(chunks: [[1, 2], [3]]), maxRequestBodyBytes: 10)
                let request = try #require(upstream.requests.first)
                checkCommon(request, port: upstream.port, requestID: requestID)
                #expect(request.headerValues("x-forwarded-for") == ["192.0.2.7"])
                #expect(request.headerValues("forwarded").isEmpty)
                #expect(request.headerValues("content-length") == ["3"])
                #expect(request.body == [1, 2, 3])
            }
        }
    }
}
