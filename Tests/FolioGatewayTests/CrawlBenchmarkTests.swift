import Foundation
import HummingbirdTesting
import Testing

@testable import FolioGateway

/// Issue 4's crawl benchmark: 500 upstream pages of 200 items, 20 ms upstream latency per page,
/// crawled sequentially (`linkHeader`) and in parallel (`page` + `totalField`).
///
/// Opt-in, since it takes about a minute: `FOLIO_BENCH=1 swift test -c release
/// -Xswiftc -enable-testing --filter CrawlBenchmark`. It prints wall times and their ratio to
/// the ideal `pages / concurrency × latency`; figures go to BENCHMARKS.md by hand.
@Suite struct CrawlBenchmarkTests {
    static let enabled = ProcessInfo.processInfo.environment["FOLIO_BENCH"] == "1"
    static let pages = 500
    static let perPage = 200
    static let latency = Duration.milliseconds(20)
    static let runs = 3

    @Test(.enabled(if: enabled, "set FOLIO_BENCH=1 to run"))
    func crawlOf500PagesWith20msLatency() async throws {
        let elements = objectsBody(Self.pages * Self.perPage).elements
        let slices = (0..<Self.pages).map { "[" + elements[($0 * Self.perPage)..<(($0 + 1) * Self.perPage)].joined(separator: ",") + "]" }
        let linkPages = slices.map { Array($0.utf8) }
        let totalPages = slices.map { Array(#"{"data":\#($0),"total":\#(elements.count)}"#.utf8) }
        return try await withTestUpstream({ request in
            let page = request.queryValue("page").flatMap(Int.init) ?? 1
            guard (1...Self.pages).contains(page) else { return .json("[]") }
            var reply: TestUpstream.Reply
            if request.queryValue("per_page") != nil {
                reply = TestUpstream.Reply(headers: [("Content-Type", "application/json")], body: totalPages[page - 1])
            } else {
                let next = page < Self.pages ? [("Link", "</items?page=\(page + 1)>; rel=\"next\"")] : []
                reply = TestUpstream.Reply(headers: [("Content-Type", "application/json")] + next, body: linkPages[page - 1])
            }
            reply.delay = Self.latency
            return reply
        }) { upstream in

            let cases: [(name: String, route: String, concurrency: Int)] = [
                ("sequential (linkHeader)", "upstreamPaging: { style: linkHeader }", 1),
                ("parallel (page + totalField, concurrency 8)",
                 "items: /data\nupstreamPaging: { style: page, size: \(Self.perPage), totalField: /total, concurrency: 8 }", 8),
                ("parallel (page + totalField, concurrency 16)",
                 "items: /data\nupstreamPaging: { style: page, size: \(Self.perPage), totalField: /total, concurrency: 16 }", 16),
            ]
            var report = "crawl of \(Self.pages) pages × \(Self.perPage) items, \(Self.latency) upstream latency, best and median of \(Self.runs):\n"
            for (name, route, concurrency) in cases {
                // ttl 0: every request is a miss that crawls the whole list again.
                let yaml = gatewayYAML(
                    upstream: upstream.baseURL + "/items",
                    route: route + "\ncache: { ttl: 0s, staleWhileRevalidate: 0s, staleIfError: 0s }")
                let times = try await withGateway(yaml) { client, _ in
                    var times: [Duration] = []
                    for _ in 0..<Self.runs {
                        let before = upstream.requestCount
                        let start = ContinuousClock.now
                        let response = try await client.execute(uri: "/objects?pageSize=1", method: .get)
                        times.append(ContinuousClock.now - start)
                        #expect(response.status == .ok)
                        #expect(try response.json.paging["totalCount"] as? Int == elements.count)
                        #expect(upstream.requestCount - before == Self.pages)
                    }
                    return times.sorted()
                }
                let ideal = Self.latency * (Double(Self.pages) / Double(concurrency))
                let best = times[0]
                let median = times[times.count / 2]
                report += "  \(name): best \(Self.ms(best)) ms, median \(Self.ms(median)) ms; ideal \(Self.ms(ideal)) ms; "
                report += "best/ideal \(String(format: "%.2f", best / ideal))×\n"
            }
            print(report)
        }
    }

    static func ms(_ duration: Duration) -> Int {
        Int(duration / .milliseconds(1))
    }
}
