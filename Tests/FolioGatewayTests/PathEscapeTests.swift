import Foundation
import Testing

@testable import FolioGateway

/// Request targets that could reach an upstream outside the prefix Folio forwards to
/// (docs/API.md, "Paths"; issue 39): written byte for byte on a plain socket, since HTTP
/// clients resolve dot segments before they send a path.
@Suite("Paths: dot segments, CONNECT and the asterisk form never reach an upstream")
struct PathEscapeTests {
    /// A route `/lists/{id}` in front of `upstream/list/{id}`, and the same upstream under
    /// `prefix` as `fallbackUpstream`.
    static func yaml(_ upstream: TestUpstream, prefix: String = "/fb", server: String = "") -> String {
        gatewayYAML(
            upstream: upstream.baseURL + "/list/{id}", admin: true,
            server: "fallbackUpstream: \(upstream.baseURL)\(prefix)" + (server.isEmpty ? "" : "\n" + server),
            name: "lists", path: "/lists/{id}")
    }

    /// Runs `body` against a gateway of `yaml(upstream, prefix:, server:)` and its upstream.
    static func withPaths(
        prefix: String = "/fb", server: String = "", _ body: @Sendable (TestUpstream, RunningFolio) async throws -> Void
    ) async throws {
        try await withTestUpstream({ _ in .json("[1,2]") }) { upstream in
            _ = try await withFolio(yaml(upstream, prefix: prefix, server: server)) { folio in
                try await body(upstream, folio)
            }
        }
    }

    @Test(arguments: [
        // The issue's: out of the fallback's prefix, plainly and percent-encoded.
        "/a/../../secret", "/a/%2e%2e/%2e%2e/secret", "/a/..%2f..%2fsecret",
        // Every spelling of a dot: %2e, %2E, mixed; %2f and %2F as separators.
        "/a/%2E%2E/secret", "/a/.%2e/secret", "/a/%2e./secret", "/a/..%2Fsecret", "/a%2f..%2f..%2fsecret",
        "/%2e%2e%2fsecret", "/a/%2E%2e%2F%2e%2E%2fsecret",
        // Trailing and single dots, and the root's own.
        "/a/..", "/a/%2e%2e", "/a/.", "/a/%2E", "/a/./b", "/./secret", "/..", "/.", "/a/..?x=1",
        // `..;x` is `..` to origins that read path parameters; `\` and `%5c` separate on some.
        "/a/..;/secret", "/a/%2e%2e;x/secret", "/a/..%5csecret", "/a/..%5Csecret", "/a/..\\secret", "/a/..#x",
        // Route paths: a placeholder value `..;x` would be `..` at such an upstream.
        "/lists/..", "/lists/%2e", "/lists/..;x", "/lists/%2e%2e%2fx", "/lists/./1",
    ])
    func dotSegmentsAre400AndNeverForwarded(_ target: String) async throws {
        try await Self.withPaths { upstream, folio in
            for method in ["GET", "HEAD", "POST", "DELETE"] {
                let answer = try await RawAnswer.exchange(
                    port: folio.clientPort, "\(method) \(target) HTTP/1.1\r\nHost: folio\r\nContent-Length: 0")
                #expect(answer.status == 400, "\(method) \(target): \(answer.text)")
                #expect(answer.header("Content-Type") == "application/problem+json", "\(method) \(target)")
                if method != "HEAD" {
                    #expect(answer.body.contains("urn:folio:problem:invalid-path"), "\(answer.body)")
                    #expect(answer.body.contains("'..'"), "the detail says why: \(answer.body)")
                }
            }
            #expect(upstream.requestCount == 0, "\(upstream.requests.map(\.path))")
        }
    }

    /// Dots inside names are no dot segments: forwarded, under the prefix, byte for byte.
    @Test(arguments: [
        "/a.b/c..d", "/.well-known/x", "/a/...", "/a/.b", "/a/b.", "/a/..b", "/a/%2e%2e%2e", "/a/%2e.x",
        "/v1.2/x?next=../..&p=%2e%2e", "/a/b;v=..",
    ])
    func dotsInsideNamesPass(_ target: String) async throws {
        try await Self.withPaths { upstream, folio in
            let answer = try await RawAnswer.exchange(
                port: folio.clientPort, "GET \(target) HTTP/1.1\r\nHost: folio")
            #expect(answer.status == 200, "\(target): \(answer.text)")
            let received = try #require(upstream.requests.last)
            let query = received.query.map { "?" + $0 } ?? ""
            #expect("\(received.path)\(query)" == "/fb\(target)")
        }
    }

    /// The fallback's path and the client's are joined with exactly one `/`.
    @Test(arguments: [("/fb", "/fb/x/y?z=1"), ("/fb/", "/fb/x/y?z=1"), ("/fb//", "/fb/x/y?z=1"), ("", "/x/y?z=1")])
    func theFallbackPrefixIsJoinedWithOneSlash(prefix: String, expected: String) async throws {
        try await Self.withPaths(prefix: prefix) { upstream, folio in
            let answer = try await RawAnswer.exchange(port: folio.clientPort, "GET /x/y?z=1 HTTP/1.1\r\nHost: f")
            #expect(answer.status == 200, "\(answer.text)")
            let received = try #require(upstream.requests.last)
            #expect(received.path + "?" + (received.query ?? "") == expected)
        }
    }

    @Test func fallbackPathJoinsWithOneSlash() {
        #expect(Forwarder.fallbackPath("/fb", "/x") == "/fb/x")
        #expect(Forwarder.fallbackPath("/fb/", "/x") == "/fb/x")
        #expect(Forwarder.fallbackPath("", "/x?a=/b") == "/x?a=/b")
        #expect(Forwarder.fallbackPath("/", "/") == "/")
        #expect(Forwarder.fallbackPath("/fb", "x") == "/fb/x")
    }

    /// `CONNECT` is 405 whatever its target; nothing is forwarded, nor tunnelled. (NIO writes
    /// no body on an answer to `CONNECT`, so the problem's body is not read here.)
    @Test(arguments: ["-internal/secret", "127.0.0.1:22", "/lists/1", "/anything", "*"])
    func connectIs405AndNeverForwarded(_ target: String) async throws {
        try await Self.withPaths { upstream, folio in
            let answer = try await RawAnswer.exchange(
                port: folio.clientPort, "CONNECT \(target) HTTP/1.1\r\nHost: \(target)")
            #expect(answer.status == 405, "\(answer.text)")
            #expect(answer.header("Allow") == CORSRules.allowedMethods)
            #expect(answer.header("Connection") == "close")
            #expect(upstream.requestCount == 0, "\(upstream.requests.map(\.path))")
        }
    }

    /// `OPTIONS *` is Folio's to answer; the asterisk form with any other method is 400.
    @Test func theAsteriskFormIsAnsweredByFolioOrRefused() async throws {
        try await Self.withPaths { upstream, folio in
            let options = try await RawAnswer.exchange(port: folio.clientPort, "OPTIONS * HTTP/1.1\r\nHost: f")
            #expect(options.status == 200, "\(options.text)")
            #expect(options.header("Allow") == CORSRules.allowedMethods)
            for method in ["GET", "HEAD", "POST", "DELETE", "PURGE"] {
                let answer = try await RawAnswer.exchange(
                    port: folio.clientPort, "\(method) * HTTP/1.1\r\nHost: f\r\nContent-Length: 0")
                #expect(answer.status == 400, "\(method) *: \(answer.text)")
                if method != "HEAD" {
                    #expect(answer.body.contains("urn:folio:problem:invalid-request-target"), "\(answer.body)")
                }
            }
            #expect(upstream.requestCount == 0, "\(upstream.requests.map(\.path))")
        }
    }

    /// A refused route path is never filled, so never kept, so never answered at once from the
    /// raw bytes (`Gateway.answerAtOnce`) either.
    @Test func aRefusedRoutePathIsNeverAnsweredAtOnce() async throws {
        try await Self.withPaths { upstream, folio in
            for _ in 0..<3 {
                let answer = try await RawAnswer.exchange(
                    port: folio.clientPort, "GET /lists/..;x HTTP/1.1\r\nHost: folio")
                #expect(answer.status == 400, "\(answer.text)")
            }
            #expect(try await folio.metrics().value("folio_answers_at_once_total") == 0)
            #expect(upstream.requestCount == 0, "\(upstream.requests.map(\.path))")
        }
    }

    /// Headers some origins route (`X-Original-URL`, `X-Rewrite-URL`) or authorize
    /// (`X-Real-IP`) by are dropped from untrusted peers, like `Forwarded`, and pass from
    /// trusted ones.
    @Test(arguments: [false, true])
    func routingHeadersPassOnlyFromTrustedPeers(trusted: Bool) async throws {
        let sent = [
            ("X-Original-URL", "/admin/secret"), ("X-Rewrite-URL", "/admin/secret"), ("X-Real-IP", "10.0.0.1"),
            ("Forwarded", "for=10.0.0.1"),
        ]
        try await Self.withPaths(server: trusted ? "trustedProxies: [127.0.0.1/32]" : "") {
            upstream, folio async throws in
            #expect(try await folio.get("\(folio.client)/other", headers: sent).status == 200)
            #expect(try await folio.post("\(folio.client)/lists/1", headers: sent).status == 200)
            #expect(upstream.requests.map(\.path) == ["/fb/other", "/list/1"])
            for request in upstream.requests {
                for (name, value) in sent {
                    #expect(request.headerValues(name) == (trusted ? [value] : []), "\(name), trusted: \(trusted)")
                }
            }
        }
    }

    @Test(arguments: [
        ("/a/../b", true), ("/a/%2e%2e/b", true), ("/a/%2E%2e", true), ("/a/.", true), ("/a%2F.%2Fb", true),
        ("/..;x", true), ("/a/.#x", true), ("/a\\..\\b", true), ("/a/..%5cb", true), (".", true), ("..", true),
        ("/", false), ("", false), ("/a.b/c..d", false), ("/...", false), ("/a/%2e%2e%2e", false), ("/%2e%2ex", false),
        ("/a/b;..", false), ("/a/%2", false), ("/a/%", false), ("/a/.%2", false), ("/a/%2g", false),
    ])
    func dotSegmentsAreFoundInEverySpelling(path: String, isDot: Bool) {
        #expect(RequestTargetRules.hasDotSegment(Substring(path)) == isDot, "\(path)")
    }
}

/// One answer read off a plain socket: the request is written as given (plus
/// `Connection: close` and the blank line), and read until the server closes.
struct RawAnswer {
    var status: Int
    var head: [String]
    var body: String
    var text: String

    static func exchange(port: Int, _ request: String) async throws -> RawAnswer {
        let connection = try await RawConnection.open(port: port)
        try await connection.send(request + "\r\nConnection: close\r\n\r\n")
        _ = await connection.waitForClose()
        let text = connection.received
        let parts = text.components(separatedBy: "\r\n\r\n")
        let head = parts[0].components(separatedBy: "\r\n")
        let status = head[0].split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return RawAnswer(status: status, head: head, body: parts.dropFirst().joined(separator: "\r\n\r\n"), text: text)
    }

    /// The first value of the field `name` (case-insensitive).
    func header(_ name: String) -> String? {
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].lowercased() == name.lowercased() {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }
}
