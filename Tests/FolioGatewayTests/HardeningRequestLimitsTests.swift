import AsyncHTTPClient
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import FolioGateway

/// Client-side limits (SECURITY.md, "Limits"; docs/API.md, "Errors"), each answered by Folio's own
/// problem+json before anything reaches the upstream; beyond the HTTP parser's own caps, a bare 400
/// and a closed connection, never a 5xx.
@Suite struct HardeningRequestLimitsTests {
    static let limits = """
        limits:
          maxURLBytes: 1KiB
          maxHeaderBytes: 2KiB
          maxHeaderCount: 20
          maxRequestBodyBytes: 1KiB
        """

    static func yaml(_ upstream: String) -> String {
        gatewayYAML(upstream: upstream, top: limits)
    }

    @Test func requestTargetOverMaxURLBytesIs414() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(3).body) }) { upstream in
            try await withGateway(Self.yaml(upstream.baseURL)) { client, _ in
                let prefix = "/objects?x="
                let atLimit = prefix + String(repeating: "a", count: 1024 - prefix.utf8.count)
                #expect(try await client.execute(uri: atLimit, method: .get).status == .ok)
                let fetches = upstream.requestCount

                let response = try await client.execute(uri: atLimit + "a", method: .get)
                let detail = try checkProblem(response, status: 414, code: "uri-too-long")
                #expect(detail.contains("1025") && detail.contains("1024"), "detail: \(detail)")
                #expect(response.header("Cache-Status") == nil)
                // Path bytes count too, and multi-byte characters by their UTF-8 length.
                let long = try await client.execute(uri: "/" + String(repeating: "%C3%A9", count: 200), method: .get)
                try checkProblem(long, status: 414)
                #expect(upstream.requestCount == fetches, "nothing went upstream")
            }
        }
    }

    @Test func tooManyHeaderFieldsIs431() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(3).body) }) { upstream in
            try await withGateway(Self.yaml(upstream.baseURL)) { client, _ in
                var few = HTTPFields()
                for i in 0..<10 { few.append(HTTPField(name: HTTPField.Name("X-Field-\(i)")!, value: "v")) }
                #expect(try await client.execute(uri: "/objects", method: .get, headers: few).status == .ok)
                // Host counts as a field (it arrives as the authority): with it, 20 is the limit.
                let port = try #require(client.port)
                for (count, status) in [(19, "200"), (20, "431")] {
                    let connection = try await RawConnection.open(port: port)
                    let lines = (0..<count).map { "X-Field-\($0): v\r\n" }.joined()
                    try await connection.send("GET /objects HTTP/1.1\r\nHost: folio\r\n\(lines)\r\n")
                    #expect(await connection.waitFor("\r\n\r\n"), "\(connection.received)")
                    #expect(connection.received.hasPrefix("HTTP/1.1 \(status)"), "\(count): \(connection.received)")
                    await connection.close()
                }

                var many = HTTPFields()
                for i in 0..<30 { many.append(HTTPField(name: HTTPField.Name("X-Field-\(i)")!, value: "v")) }
                let response = try await client.execute(uri: "/objects", method: .get, headers: many)
                let detail = try checkProblem(response, status: 431, code: "header-fields-too-large")
                #expect(detail.contains("20"), "detail: \(detail)")
                #expect(response.header("Cache-Status") == nil)
            }
        }
    }

    @Test func headerBlockOverMaxHeaderBytesIs431() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(3).body) }) { upstream in
            try await withGateway(Self.yaml(upstream.baseURL)) { client, _ in
                let small: HTTPFields = [HTTPField.Name("X-Big")!: String(repeating: "b", count: 1000)]
                #expect(try await client.execute(uri: "/objects", method: .get, headers: small).status == .ok)
                // Under the count limit, over the byte limit once several fields add up.
                var large = HTTPFields()
                for i in 0..<3 {
                    large.append(
                        HTTPField(name: HTTPField.Name("X-Big-\(i)")!, value: String(repeating: "b", count: 1000)))
                }
                let response = try await client.execute(uri: "/objects", method: .get, headers: large)
                let detail = try checkProblem(response, status: 431, code: "header-fields-too-large")
                #expect(detail.contains("2048"), "detail: \(detail)")
            }
        }
    }

    @Test func beyondTheParsersCapsIsABare400NeverA5xx() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(3).body) }) { upstream in
            try await withGateway(Self.yaml(upstream.baseURL)) { client, _ in
                let port = try #require(client.port)
                for request in [
                    // One field far beyond the parser's field cap (80 KiB at these limits).
                    "GET /objects HTTP/1.1\r\nHost: x\r\nX-Huge: \(String(repeating: "h", count: 200_000))\r\n\r\n",
                    // A request line far beyond it.
                    "GET /objects?q=\(String(repeating: "q", count: 200_000)) HTTP/1.1\r\nHost: x\r\n\r\n",
                    // More fields than the parser's count cap (1000).
                    "GET /objects HTTP/1.1\r\nHost: x\r\n" + (0..<1500).map { "X-\($0): v\r\n" }.joined() + "\r\n",
                ] {
                    let connection = try await RawConnection.open(port: port)
                    try? await connection.send(request)
                    #expect(await connection.waitForClose(), "the connection is closed")
                    let status = connection.received.split(separator: " ").dropFirst().first.flatMap { Int($0) }
                    #expect(
                        status == nil || status == 400 || status == 414 || status == 431,
                        "got \(connection.received.prefix(80))")
                }
                #expect(try await client.execute(uri: "/objects", method: .get).status == .ok, "still serving")
                #expect(upstream.requestCount == 1)
            }
        }
    }

    @Test func requestBodyOverMaxRequestBodyBytesIs413() async throws {
        try await withTestUpstream({ request in
            request.method == "GET" ? .json(objectsBody(3).body) : .json(#"{"ok":true}"#, status: 201)
        }) { upstream in
            try await withGateway(Self.yaml(upstream.baseURL)) { client, _ in
                let first = try await client.execute(uri: "/objects", method: .get)
                let token = try #require(try first.json.paging["snapshot"] as? String)

                // Declared too large: refused before anything is sent upstream.
                let declared = try await client.execute(
                    uri: "/objects", method: .post, headers: [.contentType: "application/json"],
                    body: ByteBuffer(repeating: UInt8(ascii: "x"), count: 1025))
                let detail = try checkProblem(declared, status: 413, code: "request-body-too-large")
                #expect(detail.contains("1024"), "detail: \(detail)")
                #expect(upstream.requests.allSatisfy { $0.method == "GET" })

                // Chunked, no length: counted while it streams.
                let http = HTTPClient(eventLoopGroupProvider: .singleton)
                var request = HTTPClientRequest(url: "http://127.0.0.1:\(try #require(client.port))/objects")
                request.method = .POST
                let chunks = ChunkedBody(
                    chunks: Array(repeating: Array(repeating: UInt8(ascii: "y"), count: 300), count: 4))
                request.body = .stream(chunks, length: .unknown)
                let streamed: HTTPClientResponse
                do {
                    streamed = try await http.execute(request, timeout: .seconds(30))
                } catch {
                    try? await http.shutdown()
                    throw error
                }
                try await http.shutdown()
                #expect(streamed.status.code == 413)
                #expect(streamed.headers.first(name: "content-type") == "application/problem+json")
                #expect(!upstream.requests.contains { $0.method == "POST" }, "no complete POST reached the upstream")

                // A rejected write does not drop the snapshot; one at the limit goes through and does.
                let after = try await client.execute(uri: "/objects", method: .get)
                #expect(after.header("Cache-Status")?.hasPrefix("folio; hit") == true)
                #expect(try after.json.paging["snapshot"] as? String == token)
                let atLimit = try await client.execute(
                    uri: "/objects", method: .post, body: ByteBuffer(repeating: UInt8(ascii: "z"), count: 1024))
                #expect(atLimit.status == .created)
                #expect(upstream.requests.last?.body.count == 1024)
            }
        }
    }

    @Test func tricklingRequestBodyIsCutAtUpstreamTimeout() async throws {
        try await withTestUpstream({ _ in TestUpstream.Reply(status: 204) }) { upstream in
            let yaml = gatewayYAML(upstream: upstream.baseURL, top: "limits:\n  upstreamTimeout: 1s")
            try await withGateway(yaml) { client, _ in
                // Each chunk is a complete HTTP part, so idleTimeout never fires; the body streams
                // to the upstream inside the exchange's deadline, which does.
                let connection = try await RawConnection.open(port: try #require(client.port))
                try await connection.send("POST /objects HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
                var sent = 0
                while !connection.received.contains("\r\n\r\n"), !connection.isClosed, sent < 100 {
                    try? await connection.send("1\r\na\r\n")
                    try await Task.sleep(for: .milliseconds(100))
                    sent += 1
                }
                #expect(
                    connection.received.hasPrefix("HTTP/1.1 504"),
                    "after \(sent) chunks: \(connection.received.prefix(80))")
                #expect(connection.received.contains("upstream-timeout"))
                #expect(upstream.requestCount == 0, "no complete request reached the upstream")
                await connection.close()
            }
        }
    }

    @Test func idleTimeoutClosesIdleAndTricklingConnections() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(3).body) }) { upstream in
            let yaml = gatewayYAML(upstream: upstream.baseURL).replacingOccurrences(
                // 2 s, not less: on a loaded 2-core machine a connection's first read can come
                // a second after it was accepted (an idle connection to the timer), and the
                // kept-alive request below would find its connection closed.
                of: "  admin: null", with: "  admin: null\n  idleTimeout: 2s")
            try await withGateway(yaml) { client, _ in
                let port = try #require(client.port)

                let silent = try await RawConnection.open(port: port)
                #expect(await silent.waitForClose(), "a connection that never sends is closed")

                // Slowloris: a header block that never ends, one byte at a time, each well within
                // the idle timeout. The timer counts from the last complete request part, so the
                // trickle does not keep the connection open.
                let trickle = try await RawConnection.open(port: port)
                try await trickle.send("GET /objects HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                var sent = 0
                while !trickle.isClosed, sent < 200 {
                    try? await trickle.send("a")
                    try await Task.sleep(for: .milliseconds(50))
                    sent += 1
                }
                #expect(trickle.isClosed, "closed after \(sent) bytes")
                #expect(!trickle.received.contains("200 OK"))

                // A kept-alive connection that goes quiet after its answer is closed too.
                let keptAlive = try await RawConnection.open(port: port)
                try await keptAlive.send("GET /objects HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(await keptAlive.waitFor("HTTP/1.1 200"))
                #expect(await keptAlive.waitForClose())
            }
        }
    }
}
