import FolioConfiguration
import FolioGateway
import FolioTestSupport
import Foundation
import HummingbirdTesting
import Logging
import Prometheus
import Testing

@testable import FolioClient

/// One list element of the tests' upstream.
struct Item: Decodable, Sendable, Equatable {
    var id: Int
    var name: String
    var category: String
    var tag: String
}

/// `count` items whose names start with letters spread unevenly over A–Z (ASCII, so the
/// gateway's folded order is plain byte order and sections are the first letter), in an upstream
/// order that is not the sorted one.
func upstreamItems(_ count: Int, tag: String = "v1") -> (body: String, items: [Item]) {
    let items = (0..<count).map { index in
        let letter = Character(UnicodeScalar(UInt8(65 + (index * 7 + index / 3) % 26)))
        let name = "\(letter)\(String(format: "%05d", (index * 7919) % 100_000))"
        return Item(id: index, name: name, category: ["a", "b", "c"][index % 3], tag: tag)
    }
    let elements = items.map {
        #"{"id":\#($0.id),"name":"\#($0.name)","category":"\#($0.category)","tag":"\#($0.tag)"}"#
    }
    return ("[" + elements.joined(separator: ",") + "]", items)
}

/// The reference order of a route sorted by `name` (ties by upstream position).
func sortedByName(_ items: [Item]) -> [Item] {
    items.enumerated().sorted { ($0.element.name, $0.offset) < ($1.element.name, $1.offset) }.map(\.element)
}

/// The config of the tests' one route `/objects`, sorted and sectioned by `name`.
func clientYAML(
    upstream: String, dialect: String = "folio", cache: String = "{}", envelope: Bool = true, maxPageSize: Int = 500,
    params: String = "{}"
) -> String {
    """
    server:
      listen: 127.0.0.1:0
      admin: null
    routes:
      - name: objects
        path: /objects
        upstream: \(upstream)/objects
        sort: [name]
        sectionKey: name
        groupable: [category]
        dialect: \(dialect)
        envelope: \(envelope)
        pageSize: \(min(25, maxPageSize))
        maxPageSize: \(maxPageSize)
        params: \(params)
        cache: \(cache)
    """
}

/// A live gateway (the package's own `buildApplication` on a loopback port) for `yaml`; `body`
/// gets the URL of its `/objects` route and a reader of the route's answered-request count.
func withClientGateway<T: Sendable>(
    _ yaml: String,
    now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
    _ body: @Sendable (_ objects: URL, _ requests: GatewayRequests) async throws -> T
) async throws -> T {
    let configuration = try ConfigurationLoader.parse(yaml: yaml, file: "client-test.yaml")
    var logger = Logger(label: "folio.client-test")
    logger.logLevel = .critical
    let registry = PrometheusCollectorRegistry()
    let server = try buildApplication(configuration: configuration, logger: logger, metrics: registry, now: now)
    return try await server.application.test(.live) { client in
        let port = try #require(client.port)
        return try await body(URL(string: "http://127.0.0.1:\(port)/objects")!, GatewayRequests(registry: registry))
    }
}

/// Requests the gateway answered on the `objects` route, read from its own metrics
/// (`folio_requests_total`): what reached Folio, whatever the client believes it sent.
struct GatewayRequests: Sendable {
    let registry: PrometheusCollectorRegistry

    func count(statusClass: String = "2xx") -> Int {
        let text = String(decoding: registry.emitToBuffer(), as: UTF8.self)
        let line = text.split(separator: "\n").first {
            $0.hasPrefix("folio_requests_total{") && $0.contains(#"route="objects""#)
                && $0.contains(#"status_class="\#(statusClass)""#)
        }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") }.map { Int($0) } ?? 0
    }
}

extension PagedList {
    /// Whether page `page` is loaded (no side effect, unlike the subscript).
    func hasPage(_ page: Int) -> Bool { state.withLock { $0.isLoaded(page: page) } }

    /// Page loads started and not finished.
    var inFlight: Int { state.withLock { $0.loading.count } }
}

/// Reads `list[index]`, waiting on `changes` while it is a placeholder; a failed page or a reset
/// while waiting is an error of the test.
func element<E>(
    _ list: PagedList<E>, at index: Int, changes: inout AsyncStream<PagedListChange>.Iterator
) async throws -> E {
    while true {
        if let element = list[index] { return element }
        switch await changes.next() {
        case .pageFailed(let page, let error)?: throw TestFailure("page \(page) failed: \(error)")
        case .reset(let count)?: throw TestFailure("unexpected reset to \(count)")
        case nil: throw TestFailure("changes ended")
        default: continue
        }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
