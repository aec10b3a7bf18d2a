import AsyncHTTPClient
import FolioEngine
import Foundation
import NIOHTTP1
import Testing

@testable import FolioGateway

/// `limits` (SECURITY.md, "Limits"): every breach is a problem+json answer and one count in
/// `folio_limit_breaches_total{limit}`, under its config key, and in no other limit's series.
@Suite("Limit breaches are counted")
struct LimitBreachMetricsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var limit: Limit
        var limits: String
        var status: Int
        /// What the upstream answers.
        var reply: @Sendable () -> TestUpstream.Reply = { .json(objectsBody(3).body) }
        var method: HTTPMethod = .GET
        var query = ""
        var headers: [(String, String)] = []
        var body: [UInt8]? = nil

        var testDescription: String { limit.key }
    }

    static let cases: [Case] = [
        Case(
            limit: .maxURLBytes, limits: "maxURLBytes: 1KiB", status: 414,
            query: "?q=" + String(repeating: "a", count: 2000)),
        Case(
            limit: .maxHeaderCount, limits: "maxHeaderCount: 20", status: 431,
            headers: (0..<30).map { ("X-Extra-\($0)", "1") }),
        Case(
            limit: .maxHeaderBytes, limits: "maxHeaderBytes: 2KiB", status: 431,
            headers: [("X-Big", String(repeating: "b", count: 3000))]),
        Case(limit: .maxItems, limits: "maxItems: 5", status: 502, reply: { .json(objectsBody(10).body) }),
        Case(limit: .maxJSONDepth, limits: "maxJSONDepth: 3", status: 502, reply: { .json("[[[[[1]]]]]") }),
        Case(
            limit: .maxUpstreamBytes, limits: "maxUpstreamBytes: 1KiB", status: 502,
            reply: { .json(objectsBody(40).body) }),
        Case(
            limit: .upstreamTimeout, limits: "upstreamTimeout: 300ms", status: 504,
            reply: {
                var reply = TestUpstream.Reply.json(objectsBody(3).body)
                reply.delay = .seconds(2)
                return reply
            }),
        Case(
            limit: .maxRequestBodyBytes, limits: "maxRequestBodyBytes: 1KiB", status: 413, method: .POST,
            body: Array(repeating: UInt8(ascii: "x"), count: 4096)),
    ]

    @Test(arguments: cases)
    func aBreachIsAProblemAndOneCount(_ breach: Case) async throws {
        try await withTestUpstream({ _ in breach.reply() }) { upstream in
            let yaml = gatewayYAML(
                upstream: upstream.baseURL + "/objects", admin: true, top: "limits:\n  " + breach.limits)
            _ = try await withFolio(yaml) { folio in
                let before = try await folio.metrics()
                let answer = try await folio.http.answer(
                    "\(folio.client)/objects\(breach.query)", method: breach.method, headers: breach.headers,
                    body: breach.body)
                #expect(answer.status == breach.status)
                #expect(answer.headers.first(name: "Content-Type") == "application/problem+json")
                let after = try await folio.metrics()
                Self.expectOneBreach(of: breach.limit, before: before, after: after)
                // A request refused for itself (413, 414, 431) reaches no upstream: no exchange
                // is counted and it carries no Cache-Status (docs/API.md, "Cache-Status"); a failed fill has both.
                let involvedUpstream = breach.status >= 500
                #expect(Self.fetches(after) - Self.fetches(before) == (involvedUpstream ? 1 : 0))
                #expect((answer.headers.first(name: "Cache-Status") != nil) == involvedUpstream)
            }
        }
    }

    /// Upstream exchanges of the route `objects`, whatever their outcome.
    static func fetches(_ samples: PrometheusSamples) -> Double {
        ["2xx", "3xx", "4xx", "5xx", "timeout", "error"].reduce(0) {
            $0 + samples.value("folio_upstream_fetches_total", ["route": "objects", "outcome": $1])
        }
    }

    static func expectOneBreach(of breached: Limit, before: PrometheusSamples, after: PrometheusSamples) {
        for limit in Limit.all {
            let moved =
                after.value("folio_limit_breaches_total", ["limit": limit.key])
                - before.value("folio_limit_breaches_total", ["limit": limit.key])
            #expect(moved == (limit == breached ? 1 : 0), "\(limit.key)")
        }
    }

    @Test func aCrawlOverCrawlTimeoutCountsOnce() async throws {
        var paged = PagedUpstream(count: 400, style: .linkHeader)  // 20 pages, 100 ms each
        paged.path = "/objects"
        try await withTestUpstream({ [paged] request in
            var reply = paged.reply(request)
            reply.delay = .milliseconds(100)
            return reply
        }) { upstream in
            let yaml = gatewayYAML(
                upstream: upstream.baseURL + "/objects", admin: true, route: paged.routeKeys(),
                top: "limits: { crawlTimeout: 350ms }")
            _ = try await withFolio(yaml) { folio in
                let before = try await folio.metrics()
                #expect(try await folio.get("\(folio.client)/objects").status == 504)
                Self.expectOneBreach(of: .crawlTimeout, before: before, after: try await folio.metrics())
            }
        }
    }

    #if canImport(Glibc)
        @Test func anUpstreamThatNeverAcceptsCountsAConnectTimeout() async throws {
            let blackhole = try BlackholeListener()
            defer { blackhole.close() }
            let yaml = gatewayYAML(
                upstream: blackhole.url + "/objects", admin: true,
                top: "limits:\n  connectTimeout: 300ms\n  upstreamTimeout: 20s")
            _ = try await withFolio(yaml) { folio in
                let before = try await folio.metrics()
                #expect(try await folio.get("\(folio.client)/objects").status == 504)
                Self.expectOneBreach(of: .connectTimeout, before: before, after: try await folio.metrics())
            }
        }
    #endif

    @Test func aFillSharedByWaitersCountsItsBreachOnce() async throws {
        try await withTestUpstream({ _ in
            var reply = TestUpstream.Reply.json(objectsBody(10).body)
            reply.delay = .milliseconds(300)
            return reply
        }) { upstream in
            let yaml = gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true, top: "limits:\n  maxItems: 5")
            _ = try await withFolio(yaml) { folio in
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<5 { group.addTask { try await folio.get("\(folio.client)/objects").status } }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
                #expect(statuses == Array(repeating: 502, count: 5))
                let samples = try await folio.metrics()
                #expect(
                    samples.value("folio_limit_breaches_total", ["limit": "maxItems"]) == Double(upstream.requestCount),
                    "one count per upstream fetch that breached, not per waiter")
            }
        }
    }
}
