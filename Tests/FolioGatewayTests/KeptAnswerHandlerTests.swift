import FolioEngine
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

@testable import FolioGateway

/// Kept answers of fresh snapshots written on the event loop that read the request
/// (`KeptAnswerHandler`; docs/DESIGN.md, "Kept answers on the event loop"): the same answers
/// as the responder's, counted and logged alike, in request order, and only when nothing about
/// the request or the connection needs the responder.
@Suite("Kept answers on the event loop")
struct KeptAnswerHandlerTests {
    /// `/objects` (3 items) and `/slow`, whose upstream waits 300 ms before answering.
    static func yaml(_ upstream: String) -> String {
        """
        server:
          listen: 127.0.0.1:0
          admin: null
        cache: { ttl: 60s }
        routes:
          - name: objects
            path: /objects
            upstream: \(upstream)/objects
          - name: slow
            path: /slow
            upstream: \(upstream)/slow
        """
    }

    static func upstream(_ request: TestUpstream.Recorded) -> TestUpstream.Reply {
        if request.path == "/slow" {
            return TestUpstream.Reply(
                headers: [("Content-Type", "application/json")], body: Array(#"[{"id":"slow"}]"#.utf8),
                delay: .milliseconds(300))
        }
        return .json(objectsBody(3).body)
    }

    static func answersAtOnce(_ server: FolioServer) throws -> Double {
        try PrometheusSamples(String(decoding: server.metrics.registry.emitToBuffer(), as: UTF8.self))
            .value("folio_answers_at_once_total")
    }

    @Test func aKeptAnswerIsWrittenAtOnceAndIsTheResponderAnswer() async throws {
        try await withTestUpstream(Self.upstream) { upstream in
            try await withGateway(Self.yaml(upstream.baseURL)) { client, server in
                let uri = "/objects?pageSize=2"
                let first = try await client.execute(uri: uri, method: .get)
                #expect(try Self.answersAtOnce(server) == 0, "rendered by the responder")
                let again = try await client.execute(uri: uri, method: .get)
                #expect(try Self.answersAtOnce(server) == 1)
                #expect(again.status == .ok)
                #expect(Array(buffer: again.body) == Array(buffer: first.body))
                #expect(KeptAnswerTests.stableFields(again) == KeptAnswerTests.stableFields(first))
                #expect(again.header("Cache-Status")?.hasPrefix("folio; hit; ttl=") == true)
                #expect(again.header("Age") != nil)
                let id = try #require(again.header("X-Request-ID"))
                #expect(id != first.header("X-Request-ID"))
                let date = try #require(again.header("Date"))
                let written = try #require(HTTPDate.parse(date))
                #expect(abs(written.timeIntervalSinceNow) < 60)

                // The client's own request ID, a 304 and HEAD are answered at once too.
                let tag = try #require(first.header("ETag"))
                let named = try await client.execute(uri: uri, method: .get, headers: [.xRequestID: "req-7"])
                #expect(named.header("X-Request-ID") == "req-7")
                let notModified = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: tag])
                #expect(notModified.status == .notModified)
                #expect(notModified.body.readableBytes == 0)
                let head = try await client.execute(uri: uri, method: .head)
                #expect(head.status == .ok)
                #expect(head.body.readableBytes == 0)
                #expect(head.header("Content-Length") == String(first.body.readableBytes))
                #expect(try Self.answersAtOnce(server) == 4)
                #expect(upstream.requestCount == 1)

                // Counted like any request.
                let samples = try PrometheusSamples(
                    String(decoding: server.metrics.registry.emitToBuffer(), as: UTF8.self))
                #expect(samples.value("folio_requests_total", ["route": "objects", "status_class": "2xx"]) == 4)
                #expect(samples.value("folio_cache_lookups_total", ["route": "objects", "result": "hit"]) == 4)
            }
        }
    }

    @Test func whatTheResponderMustSeeIsHandedOn() async throws {
        try await withTestUpstream(Self.upstream) { upstream in
            try await withGateway(Self.yaml(upstream.baseURL)) { client, server in
                let uri = "/objects?pageSize=2"
                _ = try await client.execute(uri: uri, method: .get)
                // A request with a body, or for a closed connection: the responder's.
                let withBody = try await client.execute(
                    uri: uri, method: .get, headers: [.contentType: "text/plain"], body: ByteBuffer(string: "x"))
                #expect(withBody.status == .ok)
                #expect(try Self.answersAtOnce(server) == 0)

                let port = try #require(client.port)
                let connection = try await RawConnection.open(port: port)
                try await connection.send("GET \(uri) HTTP/1.1\r\nHost: folio\r\nConnection: close\r\n\r\n")
                #expect(await connection.waitForClose(), "Hummingbird closes after the answer")
                #expect(connection.received.hasPrefix("HTTP/1.1 200 OK"))
                #expect(try Self.answersAtOnce(server) == 0)
            }
        }
    }

    @Test func pipelinedAnswersLeaveInTheOrderTheirRequestsCame() async throws {
        try await withTestUpstream(Self.upstream) { upstream in
            try await withGateway(Self.yaml(upstream.baseURL)) { client, _ in
                _ = try await client.execute(uri: "/objects?pageSize=2", method: .get)
                let connection = try await RawConnection.open(port: try #require(client.port))
                // The slow route's fill takes 300 ms; the kept page behind it could go at once.
                try await connection.send(
                    "GET /slow HTTP/1.1\r\nHost: folio\r\n\r\nGET /objects?pageSize=2 HTTP/1.1\r\nHost: folio\r\n\r\n"
                        + "GET /objects?pageSize=2 HTTP/1.1\r\nHost: folio\r\n\r\n")
                let end = ContinuousClock.now + .seconds(20)
                while connection.received.components(separatedBy: "HTTP/1.1 200 OK").count < 4,
                    ContinuousClock.now < end
                {
                    try await Task.sleep(for: .milliseconds(10))
                }
                let text = connection.received
                #expect(text.components(separatedBy: "HTTP/1.1 200 OK").count == 4, "\(text)")
                let slow = try #require(text.range(of: "X-Total-Count: 1"))
                let kept = try #require(text.range(of: "X-Total-Count: 3"))
                #expect(slow.lowerBound < kept.lowerBound, "\(text)")
                await connection.close()
            }
        }
    }

    /// An answer's head is activity for the idle timeout, as its end is: after a long fill,
    /// the clock counts from the answer's start, not from the answer before (else a check
    /// before the client's first acknowledgement would close a starting answer).
    @Test func anAnswersHeadAndEndAreActivityAndItsBodyIsNot() async throws {
        try await withTestUpstream(Self.upstream) { upstream in
            try await withGateway(Self.yaml(upstream.baseURL)) { _, server in
                let kept = KeptAnswerHandler(responder: GatewayResponder(current: server.current))
                let channel = EmbeddedChannel(handler: kept)
                var last = kept.lastActive
                for (part, isActivity) in [
                    (HTTPResponsePart.head(HTTPResponse(status: .ok)), true),
                    (.body(ByteBuffer(string: "[]")), false),
                    (.end(nil), true),
                ] {
                    try await Task.sleep(for: .milliseconds(5))
                    try channel.writeOutbound(part)
                    #expect((kept.lastActive > last) == isActivity, "\(part)")
                    last = kept.lastActive
                }
                _ = try channel.finish()
            }
        }
    }

    @Test func theDateIsWrittenAsHummingbirdWritesIt() throws {
        for seconds in [0, 951_782_400, 1_795_661_452, 4_102_444_799] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            let expected = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            #expect(HTTPDate.format(seconds) == expected)
        }
        #expect(HTTPDate.format(1_795_661_452) == "Thu, 26 Nov 2026 02:50:52 GMT")
    }
}
