import AsyncHTTPClient
import FolioConfiguration
import FolioEngine
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing

@testable import FolioGateway

/// Runs a real gateway (live HTTP on a loopback port) for `yaml` while `body` runs.
func withGateway<T: Sendable>(
    _ yaml: String,
    now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
    store: (any SnapshotStore)? = nil,
    _ body: @Sendable (any TestClientProtocol, FolioServer) async throws -> T
) async throws -> T {
    let configuration = try ConfigurationLoader.parse(yaml: yaml, file: "test.yaml")
    var logger = Logger(label: "folio.test")
    logger.logLevel = .critical
    let server = try buildApplication(configuration: configuration, logger: logger, now: now, store: store)
    return try await server.application.test(.live) { client in
        try await body(client, server)
    }
}

/// The tests' one config builder: one route (`objects` on `/objects` unless `name` and `path`
/// say otherwise) in front of `upstream`, the client listener on an ephemeral loopback port, the
/// admin listener too when `admin` is set, plus extra `server:` keys, route keys (indented for
/// the route mapping) and top-level YAML.
func gatewayYAML(
    upstream: String, admin: Bool = false, server: String = "", route: String = "", top: String = "",
    name: String = "objects", path: String = "/objects"
) -> String {
    """
    server:
      listen: 127.0.0.1:0
      admin: \(admin ? "127.0.0.1:0" : "null")
    \(server.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n"))
    \(top)
    routes:
      - name: \(name)
        path: \(path)
        upstream: \(upstream)
    \(route.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n"))
    """
}

/// `gatewayYAML` with one route `/lists/{id}` in front of `upstream/list/{id}` (a list per id)
/// and `cache.maxBytes` of `maxBytes`, plus extra route keys.
func listsYAML(upstream: String, maxBytes: String, route: String = "") -> String {
    gatewayYAML(
        upstream: upstream + "/list/{id}", route: route, top: "cache:\n  maxBytes: \(maxBytes)", name: "lists",
        path: "/lists/{id}")
}

/// `count` objects as the upstream would send them, with their exact element texts.
func objectsBody(_ count: Int, tag: String = "v1") -> (body: String, elements: [String]) {
    let elements = (0..<count).map { #"{"id":\#($0),"name":"item \#($0)","tag":"\#(tag)","price":1.50}"# }
    return ("[" + elements.joined(separator: ",") + "]", elements)
}

extension TestResponse {
    var text: String { String(buffer: body) }
    var json: [String: Any] {
        get throws { try #require(try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any]) }
    }
    func header(_ name: String) -> String? { headers[HTTPField.Name(name)!] }
}

extension [String: Any] {
    var paging: [String: Any] { self["paging"] as? [String: Any] ?? [:] }
}

/// The raw bytes of each item in an envelope body, found by re-scanning the `objects` array
/// (so tests compare bytes, not decoded values).
func rawItems(_ body: String, key: String = "objects") throws -> [String] {
    let marker = "\"\(key)\":["
    let start = try #require(body.range(of: marker)).upperBound
    let bytes = Array(body.utf8)
    var items: [String] = []
    var depth = 0
    var inString = false
    var escaped = false
    var itemStart: Int? = nil
    var i = body.utf8.distance(from: body.utf8.startIndex, to: start)
    while i < bytes.count {
        let b = bytes[i]
        if inString {
            if escaped {
                escaped = false
            } else if b == UInt8(ascii: "\\") {
                escaped = true
            } else if b == UInt8(ascii: "\"") {
                inString = false
            }
        } else {
            switch b {
            case UInt8(ascii: "\""):
                inString = true
                if itemStart == nil { itemStart = i }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if depth == 0 && itemStart == nil { itemStart = i }
                depth += 1
            case UInt8(ascii: "}"): depth -= 1
            case UInt8(ascii: "]"):
                if depth == 0 {
                    if let s = itemStart { items.append(String(decoding: bytes[s..<i], as: UTF8.self)) }
                    return items
                }
                depth -= 1
            case UInt8(ascii: ","):
                if depth == 0, let s = itemStart {
                    items.append(String(decoding: bytes[s..<i], as: UTF8.self))
                    itemStart = nil
                }
            case UInt8(ascii: " "), UInt8(ascii: "\n"): break
            default: if itemStart == nil { itemStart = i }
            }
        }
        i += 1
    }
    throw TestFailure("unterminated items array")
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Sends `uris` to the live gateway at once over separate connections (HummingbirdTesting's
/// client sends one request at a time), returning each answer's status and `Cache-Status`.
func concurrentGets(_ client: any TestClientProtocol, _ uris: [String]) async throws -> [(
    status: Int, cacheStatus: String?
)] {
    let port = try #require(client.port)
    // Its own client: the shared one opens at most 8 connections per host and would queue
    // the rest, so they would not overlap.
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(8, uris.count)
    let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    do {
        let answers = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
            for uri in uris {
                group.addTask {
                    let response = try await http.execute(
                        HTTPClientRequest(url: "http://127.0.0.1:\(port)\(uri)"), timeout: .seconds(30))
                    _ = try await response.body.collect(upTo: 64 << 20)
                    return (Int(response.status.code), response.headers.first(name: "Cache-Status"))
                }
            }
            return try await group.reduce(into: [(status: Int, cacheStatus: String?)]()) { $0.append($1) }
        }
        try await http.shutdown()
        return answers
    } catch {
        try? await http.shutdown()
        throw error
    }
}

/// A list of 150,000 objects served as one page of about 8.6 MB, more than any socket buffer
/// holds: its answer is still being sent while a test does something else (a drain, a
/// half-close, a client that stops reading).
enum LargeList {
    static let count = 150_000
    static let body = objectsBody(count).body
    static let uri = "/objects?pageSize=\(count)"
    static let request = "GET \(uri) HTTP/1.1\r\nHost: folio\r\n\r\n"

    /// A gateway config for it, with `server` keys.
    static func yaml(_ upstream: TestUpstream, admin: Bool = false, server: String = "") -> String {
        gatewayYAML(
            upstream: upstream.baseURL + "/objects", admin: admin, server: server, route: "maxPageSize: \(count)")
    }

    /// A connection to `port` that asked for the list and reads only when asked: its answer's
    /// head has come, and the rest waits in the gateway (and the socket's buffers).
    static func slowAnswer(port: Int) async throws -> RawConnection {
        let connection = try await RawConnection.open(port: port, readingWhenAsked: true)
        try await connection.send(request)
        connection.readMore()
        try await waitUntil("the answer's head came") { connection.answerProgress != nil || connection.isClosed }
        if connection.answerProgress == nil { throw TestFailure("closed before the answer's head came") }
        return connection
    }

    /// Runs `body` with an upstream serving the list.
    static func withUpstream(_ body: @Sendable (TestUpstream) async throws -> Void) async throws {
        try await withTestUpstream({ _ in .json(Self.body) }, body)
    }
}

extension Gateway {
    /// The key this gateway keeps route `name`'s anonymous list of `upstreamURL` under (no
    /// `vary` values), its `variant` included.
    func cacheKey(route name: String, upstreamURL: String) throws -> CacheKey {
        let route = try #require(routes.first { $0.name == name })
        return CacheKey(route: name, upstreamURL: upstreamURL, variant: route.listVariant)
    }
}
