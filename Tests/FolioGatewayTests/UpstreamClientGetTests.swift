import FolioEngine
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import Testing

@testable import FolioGateway

@Suite("UpstreamClient.get")
struct UpstreamClientGetTests {
    @Test func streamsChunksIntoTheSinkWhileDownloading() async throws {
        let parts = [sampleBytes(1000), sampleBytes(3000), sampleBytes(500)]
        let received = NIOLockedValueBox(0)
        // The server holds each later chunk back until the sink has seen the one before, so a
        // client that buffered the whole body first could never finish.
        let gate: @Sendable (Int) async -> Void = { index in
            // Ends when cancelled (the client gave up): a cancelled sleep throws at once, and
            // this loop would then spin forever on one of the pool's two threads.
            while received.withLockedValue({ $0 }) < index, !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        try await withTestUpstream({ _ in
            var reply = TestUpstream.Reply(headers: [("Content-Type", "application/json")], chunks: parts)
            reply.beforeChunk = gate
            return reply
        }) { upstream in
            try await withUpstreamClient { client in
                let url = upstream.baseURL + "/items?x=1"
                let (head, sink) = try await client.get(url, headers: [:]) { _ in RecordingSink(received: received) }
                #expect(head.status == 200)
                #expect(head.url == url)
                #expect(head.headers.first(name: "content-type") == "application/json")
                #expect(sink.bytes == parts.flatMap { $0 })
                #expect(sink.chunks.count >= parts.count)
                let request = try #require(upstream.requests.first)
                #expect(request.method == "GET")
                #expect(request.path == "/items")
                #expect(request.query == "x=1")
            }
        }
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func followsSameOriginRedirects(status: Int) async throws {
        let body = #"{"items":[1,2,3]}"#
        try await withTestUpstream({ request in
            switch request.path {
            case "/start": .redirect(to: "/moved?page=2", status: status)
            case "/moved":
                .redirect(
                    to: "http://127.0.0.1:\(request.headerValues("host").first!.split(separator: ":").last!)/final",
                    status: status)
            default: .json(body)
            }
        }) { upstream in
            try await withUpstreamClient { client in
                let (head, sink) = try await client.getRecording(upstream.baseURL + "/start")
                #expect(head.status == 200)
                #expect(head.url == upstream.baseURL + "/final")
                #expect(sink.bytes == Array(body.utf8))
                #expect(upstream.requests.map(\.path) == ["/start", "/moved", "/final"])
                #expect(upstream.requests[1].query == "page=2")
            }
        }
    }

    @Test(arguments: ["foreign", "scheme-relative", "other-scheme", "userinfo-trick"])
    func refusesRedirectsToAnotherOrigin(kind: String) async throws {
        try await withTestUpstream({ _ in .json("[]") }) { foreign in
            try await withTestUpstream({ request in
                let own = request.headerValues("host").first!
                return switch kind {
                case "foreign": .redirect(to: foreign.baseURL + "/steal")
                case "scheme-relative": .redirect(to: "//127.0.0.1:\(foreign.port)/steal")
                case "other-scheme": .redirect(to: "https://\(own)/steal")
                default: .redirect(to: "http://\(own)@127.0.0.1:\(foreign.port)/steal")
                }
            }) { origin in
                try await withUpstreamClient { client in
                    let error = await #expect(throws: UpstreamError.self) {
                        _ = try await client.getRecording(origin.baseURL + "/list")
                    }
                    #expect(error?.code == "upstream-redirect-refused")
                    #expect(error?.status == 502)
                    #expect(origin.requestCount == 1)
                    #expect(foreign.requestCount == 0)
                }
            }
        }
    }

    /// `/hop/N` redirects to `/hop/N-1`; `/hop/0` answers.
    private static func hops(_ request: TestUpstream.Recorded) -> TestUpstream.Reply {
        let n = Int(request.path.split(separator: "/").last!)!
        return n == 0 ? .json("[0]") : .redirect(to: "/hop/\(n - 1)", status: 307)
    }

    @Test func followsFiveRedirects() async throws {
        try await withTestUpstream({ Self.hops($0) }) { upstream in
            try await withUpstreamClient { client in
                let (head, sink) = try await client.getRecording(upstream.baseURL + "/hop/5")
                #expect(head.status == 200)
                #expect(sink.bytes == Array("[0]".utf8))
                #expect(upstream.requestCount == 6)
            }
        }
    }

    @Test func refusesASixthRedirect() async throws {
        try await withTestUpstream({ Self.hops($0) }) { upstream in
            try await withUpstreamClient { client in
                let error = await #expect(throws: UpstreamError.self) {
                    _ = try await client.getRecording(upstream.baseURL + "/hop/6")
                }
                #expect(error?.code == "upstream-too-many-redirects")
                #expect(error?.status == 502)
                #expect(upstream.requests.map(\.path) == (1...6).map { "/hop/\(7 - $0)" })
            }
        }
    }

    @Test func notModifiedIsAnAnswerNotARedirect() async throws {
        try await withTestUpstream({ _ in
            TestUpstream.Reply(status: 304, headers: [("Location", "/elsewhere"), ("ETag", "\"v1\"")])
        }) { upstream in
            try await withUpstreamClient { client in
                let (head, sink) = try await client.getRecording(upstream.baseURL + "/list")
                #expect(head.status == 304)
                #expect(head.headers.first(name: "etag") == "\"v1\"")
                #expect(sink.bytes.isEmpty)
                #expect(upstream.requestCount == 1)
            }
        }
    }

    @Test(arguments: ["gzip", "deflate"])
    func decodesCompressedBodies(encoding: String) async throws {
        let body = Array(("[" + (0..<5000).map { #"{"id":\#($0)}"# }.joined(separator: ",") + "]").utf8)
        let compressed = Gzip.compress(body, zlibWrapper: encoding == "deflate")
        try await withTestUpstream({ _ in
            TestUpstream.Reply(headers: [("Content-Encoding", encoding)], body: compressed)
        }) { upstream in
            try await withUpstreamClient { client in
                let (head, sink) = try await client.getRecording(
                    upstream.baseURL + "/list", headers: ["Accept-Encoding": "br"])
                #expect(head.status == 200)
                #expect(sink.bytes == body)
                #expect(upstream.requests.first?.headerValues("accept-encoding") == ["gzip, deflate"])
            }
        }
    }

    /// A compressed body reaches the sink in pieces of at most 64 KiB, inflated as the sink
    /// takes them (issue 39): however much one read of the wire inflates to.
    @Test(arguments: ["gzip", "deflate"])
    func inflatesAPieceAtATime(encoding: String) async throws {
        let bomb = CompressionBomb.make(count: 8 << 20, zlibWrapper: encoding == "deflate")
        try await withTestUpstream({ _ in
            TestUpstream.Reply(headers: [("Content-Encoding", encoding)], body: bomb)
        }) { upstream in
            try await withUpstreamClient { client in
                let (_, sink) = try await client.getRecording(upstream.baseURL + "/zeros")
                #expect(sink.chunks.map(\.count).reduce(0, +) == 8 << 20)
                #expect(sink.chunks.allSatisfy { $0.count <= 64 << 10 }, "\(sink.chunks.map(\.count).max() ?? 0)")
            }
        }
    }

    /// A compressed body that ends early, or goes on after its end, is no body (502).
    @Test(arguments: ["truncated", "trailing"])
    func refusesACompressedBodyThatIsCutOrHasMore(fault: String) async throws {
        let compressed = Gzip.compress(Array(objectsBody(500).body.utf8))
        let body = fault == "truncated" ? Array(compressed.dropLast(20)) : compressed + Array("[1]".utf8)
        try await withTestUpstream({ _ in
            TestUpstream.Reply(headers: [("Content-Encoding", "gzip")], body: body)
        }) { upstream in
            try await withUpstreamClient { client in
                let error = await #expect(throws: UpstreamError.self) {
                    _ = try await client.getRecording(upstream.baseURL + "/cut")
                }
                #expect(error?.code == "upstream-failed")
            }
        }
    }

    /// An empty body labelled as compressed (a 304 that repeats the stored answer's
    /// `Content-Encoding`, a 204) is an empty body, not a truncated stream.
    @Test(arguments: [200, 204, 304])
    func anEmptyBodyWithAContentEncodingIsEmpty(status: Int) async throws {
        try await withTestUpstream({ _ in
            TestUpstream.Reply(status: status, headers: [("Content-Encoding", "gzip"), ("ETag", "\"v1\"")])
        }) { upstream in
            try await withUpstreamClient { client in
                let (head, sink) = try await client.getRecording(upstream.baseURL + "/empty")
                #expect(head.status == status)
                #expect(sink.bytes.isEmpty)
            }
        }
    }

    @Test func refusesACompressedBodyThatDecodesPastTheLimit() async throws {
        let limit = 64 << 10
        let compressed = Gzip.compress([UInt8](repeating: 0, count: 2 << 20))
        #expect(compressed.count < limit)  // the wire size alone must not trip the limit
        try await withTestUpstream({ _ in
            TestUpstream.Reply(headers: [("Content-Encoding", "gzip")], body: compressed)
        }) { upstream in
            try await withUpstreamClient(UpstreamSettings(responseTimeout: .seconds(30), maxBodyBytes: limit)) {
                client in
                let error = await #expect(throws: UpstreamError.self) {
                    _ = try await client.getRecording(upstream.baseURL + "/bomb")
                }
                #expect(error?.code == "upstream-body-too-large")
                #expect(error?.status == 502)
            }
        }
    }

    @Test(arguments: [false, true])
    func refusesAPlainBodyPastTheLimit(chunked: Bool) async throws {
        let limit = 10_000
        let body = sampleBytes(limit + 1)
        try await withTestUpstream({ _ in
            chunked
                ? TestUpstream.Reply(chunks: [Array(body[..<6000]), Array(body[6000...])])
                : TestUpstream.Reply(body: body)
        }) { upstream in
            try await withUpstreamClient(UpstreamSettings(responseTimeout: .seconds(30), maxBodyBytes: limit)) {
                client in
                let error = await #expect(throws: UpstreamError.self) {
                    _ = try await client.getRecording(upstream.baseURL + "/big")
                }
                #expect(error?.code == "upstream-body-too-large")
            }
        }
    }

    @Test(arguments: [false, true])
    func acceptsABodyExactlyAtTheLimit(chunked: Bool) async throws {
        let body = sampleBytes(10_000)
        try await withTestUpstream({ _ in
            chunked
                ? TestUpstream.Reply(chunks: [Array(body[..<6000]), Array(body[6000...])])
                : TestUpstream.Reply(body: body)
        }) { upstream in
            try await withUpstreamClient(UpstreamSettings(responseTimeout: .seconds(30), maxBodyBytes: body.count)) {
                client in
                let (_, sink) = try await client.getRecording(upstream.baseURL + "/big")
                #expect(sink.bytes == body)
            }
        }
    }

    @Test func refusedConnectionIsUnreachableNotRetried() async throws {
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }  // held until the test ends
        let url = refusing.url + "/list"
        // AsyncHTTPClient would retry a refused connection until the connect timeout, so the
        // exchange would outlive the (shorter) response timeout and end as a 504 instead.
        let settings = UpstreamSettings(connectTimeout: .seconds(60), responseTimeout: .seconds(120))
        try await withUpstreamClient(settings) { client in
            let error = await #expect(throws: UpstreamError.self) {
                _ = try await client.getRecording(url)
            }
            #expect(error?.code == "upstream-unreachable")
            #expect(error?.status == 502)
        }
    }

    @Test func slowBodyTimesOutAlthoughTheHeadCameFast() async throws {
        let headSeen = NIOLockedValueBox(false)
        try await withTestUpstream({ _ in
            // The whole body takes 30 s; the head comes at once. Generous margins keep this
            // meaningful on a loaded 2-core machine.
            TestUpstream.Reply(chunks: Array(repeating: sampleBytes(10), count: 20), chunkDelay: .milliseconds(1500))
        }) { upstream in
            try await withUpstreamClient(UpstreamSettings(responseTimeout: .seconds(8))) { client in
                let error = await #expect(throws: UpstreamError.self) {
                    _ = try await client.get(upstream.baseURL + "/slow", headers: [:]) { _ in
                        headSeen.withLockedValue { $0 = true }
                        return RecordingSink()
                    }
                }
                #expect(error?.code == "upstream-timeout")
                #expect(error?.status == 504)
                #expect(headSeen.withLockedValue { $0 })
            }
        }
    }

    @Test func slowHeadTimesOut() async throws {
        try await withTestUpstream({ _ in TestUpstream.Reply(body: [1], delay: .seconds(3)) }) { upstream in
            try await withUpstreamClient(UpstreamSettings(responseTimeout: .milliseconds(300))) { client in
                let error = await #expect(throws: UpstreamError.self) {
                    _ = try await client.getRecording(upstream.baseURL + "/slow")
                }
                #expect(error?.code == "upstream-timeout")
                #expect(error?.status == 504)
            }
        }
    }

    @Test(arguments: [404, 500, 503])
    func errorAnswersPassStatusHeadersAndBody(status: Int) async throws {
        let body = #"{"error":"nope"}"#
        try await withTestUpstream({ _ in .json(body, status: status, headers: [("Retry-After", "7")]) }) { upstream in
            try await withUpstreamClient { client in
                let (head, sink) = try await client.get(upstream.baseURL + "/list", headers: [:]) { _ in
                    CollectingSink(limit: 1 << 20)
                }
                #expect(head.status == status)
                #expect(head.headers.first(name: "retry-after") == "7")
                #expect(Array(sink.buffer.readableBytesView) == Array(body.utf8))
            }
        }
    }

    @Test func sinkErrorsAreRethrownUnchanged() async throws {
        let failure = FolioError.badUpstreamBody("not JSON at byte 0")
        try await withTestUpstream({ _ in .json("<html>") }) { upstream in
            try await withUpstreamClient { client in
                let error = await #expect(throws: FolioError.self) {
                    _ = try await client.get(upstream.baseURL + "/list", headers: [:]) { _ in
                        FailingSink(error: failure)
                    }
                }
                #expect(error == failure)
            }
        }
    }

    @Test func truncatedBodyFails() async throws {
        try await withTestUpstream({ _ in TestUpstream.Reply(chunks: [sampleBytes(100)], truncate: true) }) {
            upstream in
            try await withUpstreamClient { client in
                let error = await #expect(throws: UpstreamError.self) {
                    _ = try await client.getRecording(upstream.baseURL + "/list")
                }
                #expect(error?.code == "upstream-failed")
                #expect(error?.status == 502)
            }
        }
    }

    @Test func answerHeadHasNoHopByHopHeaders() async throws {
        try await withTestUpstream({ _ in
            .json(
                "[]",
                headers: [
                    ("Connection", "X-Internal"), ("X-Internal", "1"), ("Keep-Alive", "timeout=5"),
                    ("Proxy-Authenticate", "Basic"), ("Cache-Control", "max-age=60"),
                ])
        }) { upstream in
            try await withUpstreamClient { client in
                let (head, _) = try await client.getRecording(upstream.baseURL + "/list")
                for name in ["connection", "x-internal", "keep-alive", "proxy-authenticate"] {
                    #expect(!head.headers.contains(name: name), "\(name) passed")
                }
                #expect(head.headers.first(name: "cache-control") == "max-age=60")
            }
        }
    }
}
