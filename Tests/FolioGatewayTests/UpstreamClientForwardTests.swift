import FolioEngine
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import Testing

@testable import FolioGateway

@Suite("UpstreamClient.forward")
struct UpstreamClientForwardTests {
    @Test func streamsAPostBodyAndReturnsTheAnswer() async throws {
        let parts = [sampleBytes(700), sampleBytes(1300), sampleBytes(20)]
        let answer = #"{"id":42}"#
        try await withTestUpstream({ _ in .json(answer, status: 201, headers: [("Location", "/objects/42")]) }) {
            upstream in
            // The last chunk is held back until the upstream has the request head: a client
            // that collected the body before sending would never get there.
            let headFirst = NIOLockedValueBox(false)
            let body = ChunkedBody(chunks: parts) {
                for _ in 0..<1000 where upstream.headCount == 0 && !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(5))
                }
                headFirst.withLockedValue { $0 = upstream.headCount > 0 }
            }
            try await withUpstreamClient { client in
                let url = upstream.baseURL + "/objects?dry=1"
                let (head, buffer) = try await client.forward(
                    method: .POST, url: url, headers: ["Content-Type": "application/json"],
                    body: body, maxRequestBodyBytes: 10_000)
                #expect(head.status == 201)
                #expect(head.url == url)
                #expect(head.headers.first(name: "location") == "/objects/42")
                #expect(Array(buffer.readableBytesView) == Array(answer.utf8))
                #expect(headFirst.withLockedValue { $0 })
                let request = try #require(upstream.requests.first)
                #expect(request.method == "POST")
                #expect(request.path == "/objects")
                #expect(request.query == "dry=1")
                #expect(request.body == parts.flatMap { $0 })
                #expect(request.headerValues("transfer-encoding") == ["chunked"])
                #expect(request.headerValues("content-length").isEmpty)
                #expect(request.headerValues("content-type") == ["application/json"])
            }
        }
    }

    @Test func sendsTheDeclaredLength() async throws {
        let bytes = sampleBytes(2048)
        try await withTestUpstream({ _ in TestUpstream.Reply(status: 204) }) { upstream in
            try await withUpstreamClient { client in
                let (head, buffer) = try await client.forward(
                    method: .PUT, url: upstream.baseURL + "/objects/1", headers: ["Content-Length": "2048"],
                    body: ChunkedBody(chunks: [Array(bytes[..<1000]), Array(bytes[1000...])]), maxRequestBodyBytes: 2048
                )
                #expect(head.status == 204)
                #expect(buffer.readableBytes == 0)
                let request = try #require(upstream.requests.first)
                #expect(request.headerValues("content-length") == ["2048"])
                #expect(request.headerValues("transfer-encoding").isEmpty)
                #expect(request.body == bytes)
            }
        }
    }

    @Test func rejectsATooLargeDeclaredBodyBeforeSendingAnything() async throws {
        try await withTestUpstream({ _ in .json("{}") }) { upstream in
            try await withUpstreamClient { client in
                let error = await #expect(throws: FolioError.self) {
                    _ = try await client.forward(
                        method: .POST, url: upstream.baseURL + "/objects", headers: ["Content-Length": "101"],
                        body: ChunkedBody(chunks: [sampleBytes(101)]), maxRequestBodyBytes: 100)
                }
                #expect(error?.status == 413)
                #expect(error?.code == "request-body-too-large")
                #expect(upstream.headCount == 0)
            }
        }
    }

    @Test(arguments: [[101], [60, 41], [100, 1]])
    func rejectsATooLargeStreamedBody(sizes: [Int]) async throws {
        try await withTestUpstream({ _ in .json("{}") }) { upstream in
            try await withUpstreamClient { client in
                let error = await #expect(throws: FolioError.self) {
                    _ = try await client.forward(
                        method: .POST, url: upstream.baseURL + "/objects", headers: [:],
                        body: ChunkedBody(chunks: sizes.map(sampleBytes)), maxRequestBodyBytes: 100)
                }
                #expect(error?.status == 413)
                #expect(error?.code == "request-body-too-large")
                #expect(upstream.requestCount == 0)
            }
        }
    }

    @Test func acceptsABodyExactlyAtTheLimit() async throws {
        try await withTestUpstream({ request in .json(String(request.body.count)) }) { upstream in
            try await withUpstreamClient { client in
                let (_, buffer) = try await client.forward(
                    method: .POST, url: upstream.baseURL + "/objects", headers: [:],
                    body: ChunkedBody(chunks: [sampleBytes(60), sampleBytes(40)]), maxRequestBodyBytes: 100)
                #expect(String(buffer: buffer) == "100")
            }
        }
    }

    @Test func passesRedirectsBackUnfollowed() async throws {
        try await withTestUpstream({ _ in .redirect(to: "/elsewhere", status: 303) }) { upstream in
            try await withUpstreamClient { client in
                let (head, _) = try await client.forward(
                    method: .POST, url: upstream.baseURL + "/objects", headers: [:],
                    body: ChunkedBody(chunks: [[1]]), maxRequestBodyBytes: 100)
                #expect(head.status == 303)
                #expect(head.headers.first(name: "location") == "/elsewhere")
                #expect(upstream.requestCount == 1)
            }
        }
    }

    @Test(arguments: [HTTPMethod.GET, .DELETE, .HEAD])
    func bodilessRequestsStayBodiless(method: HTTPMethod) async throws {
        try await withTestUpstream({ _ in .json("[1]") }) { upstream in
            try await withUpstreamClient { client in
                let (head, buffer) = try await client.forward(
                    method: method, url: upstream.baseURL + "/x", headers: [:],
                    body: ChunkedBody(chunks: []), maxRequestBodyBytes: 100)
                #expect(head.status == 200)
                #expect(buffer.readableBytes == (method == .HEAD ? 0 : 3))
                let request = try #require(upstream.requests.first)
                #expect(request.method == method.rawValue)
                #expect(request.headerValues("transfer-encoding").isEmpty)
                #expect(request.headerValues("content-length").isEmpty)
                #expect(request.body.isEmpty)
            }
        }
    }

    @Test func emptyPostSaysSo() async throws {
        try await withTestUpstream({ _ in TestUpstream.Reply(status: 204) }) { upstream in
            try await withUpstreamClient { client in
                _ = try await client.forward(
                    method: .POST, url: upstream.baseURL + "/x", headers: [:],
                    body: ChunkedBody(chunks: []), maxRequestBodyBytes: 100)
                let request = try #require(upstream.requests.first)
                #expect(request.headerValues("content-length") == ["0"])
                #expect(request.headerValues("transfer-encoding").isEmpty)
            }
        }
    }

    @Test func decodesACompressedAnswer() async throws {
        let answer = Array(String(repeating: #"{"ok":true},"#, count: 500).utf8)
        try await withTestUpstream({ _ in
            TestUpstream.Reply(status: 400, headers: [("Content-Encoding", "gzip")], body: Gzip.compress(answer))
        }) { upstream in
            try await withUpstreamClient { client in
                let (head, buffer) = try await client.forward(
                    method: .PATCH, url: upstream.baseURL + "/x", headers: ["Accept-Encoding": "br"],
                    body: ChunkedBody(chunks: [[1]]), maxRequestBodyBytes: 100)
                #expect(head.status == 400)
                #expect(Array(buffer.readableBytesView) == answer)
                #expect(upstream.requests.first?.headerValues("accept-encoding") == ["gzip, deflate"])
            }
        }
    }

    @Test func capsTheAnswer() async throws {
        try await withTestUpstream({ _ in
            TestUpstream.Reply(chunks: [sampleBytes(600), sampleBytes(600)])
        }) { upstream in
            try await withUpstreamClient(UpstreamSettings(responseTimeout: .seconds(30), maxBodyBytes: 1000)) {
                client in
                let error = await #expect(throws: UpstreamError.self) {
                    _ = try await client.forward(
                        method: .POST, url: upstream.baseURL + "/x", headers: [:],
                        body: ChunkedBody(chunks: [[1]]), maxRequestBodyBytes: 100)
                }
                #expect(error?.code == "upstream-body-too-large")
            }
        }
    }

    @Test func slowAnswerTimesOut() async throws {
        try await withTestUpstream({ _ in
            TestUpstream.Reply(chunks: Array(repeating: [1], count: 20), chunkDelay: .milliseconds(100))
        }) { upstream in
            try await withUpstreamClient(UpstreamSettings(responseTimeout: .milliseconds(500))) { client in
                let error = await #expect(throws: UpstreamError.self) {
                    _ = try await client.forward(
                        method: .POST, url: upstream.baseURL + "/x", headers: [:],
                        body: ChunkedBody(chunks: [[1]]), maxRequestBodyBytes: 100)
                }
                #expect(error?.code == "upstream-timeout")
                #expect(error?.status == 504)
            }
        }
    }
}
