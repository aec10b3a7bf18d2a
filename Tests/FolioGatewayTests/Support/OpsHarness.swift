import AsyncHTTPClient
import FolioConfiguration
import FolioEngine
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Synchronization
import Testing

@testable import FolioGateway

/// Log lines written by a `JSONLogHandler`, captured instead of printed.
final class CapturedLog: Sendable {
    private let lines = Mutex<[String]>([])

    var output: LogOutput { LogOutput { line in self.lines.withLock { $0.append(line) } } }

    func logger(level: Logger.Level = .info) -> Logger {
        let output = self.output
        return Logger(label: "folio") { label in JSONLogHandler(label: label, level: level, output: output) }
    }

    var all: [String] { lines.withLock { $0 } }

    /// Every captured line parsed as a JSON object (a line that is not one fails the test).
    var objects: [[String: Any]] {
        get throws {
            try all.map { line in
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
                return try #require(object as? [String: Any], "not a JSON object: \(line)")
            }
        }
    }

    func messages(_ message: String) throws -> [[String: Any]] {
        try objects.filter { $0["message"] as? String == message }
    }
}

/// A running `ServerLifecycle` (in process, no signals trapped) with its bound ports.
struct RunningFolio: Sendable {
    let server: FolioServer
    let service: ServerLifecycle
    let clientPort: Int
    let adminPort: Int
    let http: HTTPClient

    var client: String { "http://127.0.0.1:\(clientPort)" }
    var admin: String { "http://127.0.0.1:\(adminPort)" }

    func get(_ url: String, headers: [(String, String)] = []) async throws -> HTTPAnswer {
        try await http.answer(url, headers: headers)
    }

    func post(_ url: String, headers: [(String, String)] = []) async throws -> HTTPAnswer {
        try await http.answer(url, method: .POST, headers: headers)
    }

    /// The current `/metrics` text, parsed.
    func metrics() async throws -> PrometheusSamples {
        let answer = try await get("\(admin)/metrics")
        #expect(answer.status == 200)
        return try PrometheusSamples(answer.text)
    }
}

/// Runs `ServerLifecycle` for `yaml` (admin listener forced on an ephemeral loopback port) while
/// `body` runs, then drains it and returns what `run()` returned together with `body`'s result.
func withFolio<T: Sendable>(
    _ yaml: String,
    logger: Logger = quietLogger,
    _ body: @Sendable (RunningFolio) async throws -> T
) async throws -> (result: T, termination: Termination) {
    let configuration = try ConfigurationLoader.parse(yaml: yaml, file: "test.yaml")
    let clientPort = Port()
    let adminPort = Port()
    let server = try buildApplication(
        configuration: configuration, logger: logger,
        onListening: { clientPort.set($0) }, onAdminListening: { adminPort.set($0) })
    let service = ServerLifecycle(server: server, drainSignals: [], reloadSignals: [])
    let running = Task { try await service.run() }
    let http = HTTPClient(eventLoopGroupProvider: .singleton)
    do {
        let folio = RunningFolio(
            server: server, service: service, clientPort: try await clientPort.value(),
            adminPort: try await adminPort.value(),
            http: http)
        let result = try await body(folio)
        service.drain()
        let termination = try await running.value
        try await http.shutdown()
        return (result, termination)
    } catch {
        service.drain()
        _ = await running.result
        try? await http.shutdown()
        throw error
    }
}

/// A config whose client listener asks for `taken`'s port, which that upstream already holds.
func listeningOnTakenPortYAML(_ taken: TestUpstream) -> String {
    """
    server:
      listen: 127.0.0.1:\(taken.port)
      admin: null
    routes:
      - name: objects
        path: /objects
        upstream: \(taken.baseURL)/objects
    """
}

let quietLogger: Logger = {
    var logger = Logger(label: "folio.test")
    logger.logLevel = .critical
    return logger
}()

/// A bound port, known once the listener is up.
final class Port: Sendable {
    private let latch = Latch()
    private let port = Mutex<Int?>(nil)

    func set(_ value: Int) {
        port.withLock { $0 = value }
        latch.open()
    }

    func value() async throws -> Int {
        try await waitUntil("listener bound") { latch.isOpen }
        return try #require(port.withLock { $0 })
    }
}

/// Polls `condition` until it holds; fails after `limit` (a safety net, not a timing assertion).
func waitUntil(
    _ what: String, limit: Duration = .seconds(60), _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + limit
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw TestFailure("gave up waiting: \(what)") }
        try await Task.sleep(for: .milliseconds(10))
    }
}

/// A whole HTTP answer.
struct HTTPAnswer: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    var json: [String: Any] {
        get throws { try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]) }
    }
}

extension HTTPClient {
    func answer(
        _ url: String, method: HTTPMethod = .GET, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) async throws -> HTTPAnswer {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 64 << 20)
        return HTTPAnswer(status: Int(response.status.code), headers: response.headers, body: Array(buffer: body))
    }
}

/// Runs `body` with an HTTP client that is always shut down.
func withHTTPClient<T: Sendable>(
    connectionsPerHost: Int? = nil, _ body: (HTTPClient) async throws -> T
) async throws -> T {
    var configuration = HTTPClient.Configuration()
    if let connectionsPerHost {
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = connectionsPerHost
    }
    let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    do {
        let result = try await body(http)
        try await http.shutdown()
        return result
    } catch {
        try? await http.shutdown()
        throw error
    }
}

/// An upstream whose every answer is `reply`, sent once `gate` opens (a fill held in flight).
func withGatedUpstream<T>(
    _ gate: Latch, _ reply: TestUpstream.Reply, _ body: (TestUpstream) async throws -> T
) async throws -> T {
    try await withTestUpstream(
        { _ in
            await gate.wait()
            return reply
        }, body)
}
