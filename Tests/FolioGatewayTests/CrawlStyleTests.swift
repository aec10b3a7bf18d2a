import Foundation
import HummingbirdTesting
import NIOConcurrencyHelpers
import Testing

@testable import FolioGateway

/// Each `upstreamPaging.style` (docs/CONFIG.md, "Crawl behaviour worth knowing") assembles the
/// whole list, in upstream order, from real paged upstreams on loopback.
@Suite struct CrawlStyleTests {
    /// 0 items, one short page, exactly one full page, and many pages with a short last one.
    static let counts = [0, 7, 20, 123]
    static let styles: [PagedUpstream.Style] = [.linkHeader, .nextField, .page(first: 1), .page(first: 0), .offset]

    @Test(arguments: styles, counts)
    func sequentialCrawlAssemblesTheWholeList(style: PagedUpstream.Style, count: Int) async throws {
        try await expectCrawl(PagedUpstream(count: count, style: style))
    }

    @Test(arguments: [PagedUpstream.Style.page(first: 1), .offset], counts + [200, 201])
    func parallelCrawlWithTotalAssemblesTheWholeList(style: PagedUpstream.Style, count: Int) async throws {
        try await expectCrawl(PagedUpstream(count: count, style: style, total: true), extra: "concurrency: 3")
    }

    /// Pages answer after random delays, so they complete out of order; the list must still be
    /// in upstream order, and no more than `concurrency` pages may be in flight at once.
    @Test(arguments: [PagedUpstream.Style.page(first: 1), .offset])
    func parallelPagesAnsweringOutOfOrderKeepUpstreamOrder(style: PagedUpstream.Style) async throws {
        let paged = PagedUpstream(count: 40 * 20 + 11, style: style, total: true)
        let inFlight = NIOLockedValueBox((now: 0, most: 0))
        try await withTestUpstream({ request in
            inFlight.withLockedValue {
                $0.now += 1
                $0.most = max($0.most, $0.now)
            }
            try? await Task.sleep(for: .milliseconds(Int.random(in: 0...25)))
            inFlight.withLockedValue { $0.now -= 1 }
            return paged.reply(request)
        }) { upstream in
            let yaml = gatewayYAML(upstream: upstream.baseURL + paged.path, route: paged.routeKeys("concurrency: 4"))
            try await withGateway(yaml) { client, _ in
                let response = try await client.execute(uri: "/objects?pageSize=500", method: .get)
                #expect(response.status == .ok)
                #expect(try response.json.paging["totalCount"] as? Int == paged.elements.count)
                var items = try rawItems(response.text)
                var offset = 500
                while offset < paged.elements.count {
                    let next = try await client.execute(uri: "/objects?pageSize=500&offset=\(offset)", method: .get)
                    items += try rawItems(next.text)
                    offset += 500
                }
                expectSameItems(items, paged.elements)
            }
            #expect(upstream.requestCount == paged.expectedRequests)
            #expect(inFlight.withLockedValue { $0.most } <= 4)
            #expect(Set(upstream.requests.map(paged.pageIndex)) == Set(0..<paged.expectedRequests))
        }
    }

    /// `size` is only a request: an upstream that caps its pages lower is still crawled to the end.
    @Test func upstreamCappingBelowSizeIsCrawledFully() async throws {
        let paged = PagedUpstream(count: 95, cap: 10, style: .page(first: 1))
        try await expectCrawl(paged)
    }

    @Test func nextFieldFollowsAbsoluteLinksWithinTheOrigin() async throws {
        var paged = PagedUpstream(count: 45, style: .nextField)
        try await withTestUpstream({ _ in .text("not yet", status: 503) }) { upstream in
            paged.linkBase = upstream.baseURL
            upstream.setHandler { [paged] in paged.reply($0) }
            try await expectCrawl(paged, on: upstream)
        }
    }

    @Test func linkHeaderFollowsAbsoluteLinksWithinTheOrigin() async throws {
        var paged = PagedUpstream(count: 45, style: .linkHeader)
        try await withTestUpstream({ _ in .text("not yet", status: 503) }) { upstream in
            paged.linkBase = upstream.baseURL
            upstream.setHandler { [paged] in paged.reply($0) }
            try await expectCrawl(paged, on: upstream)
        }
    }

    /// Stepping styles keep the configured query (e.g. forwarded parameters) and replace only
    /// their own parameters.
    @Test func steppingKeepsOtherQueryParameters() async throws {
        let paged = PagedUpstream(count: 45, style: .page(first: 1))
        try await withTestUpstream({ paged.reply($0) }) { upstream in
            let yaml = gatewayYAML(
                upstream: upstream.baseURL + paged.path + "?kind=x&page=9", route: paged.routeKeys())
            try await withGateway(yaml) { client, _ in
                let response = try await client.execute(uri: "/objects?pageSize=500", method: .get)
                expectSameItems(try rawItems(response.text), paged.elements)
            }
            #expect(upstream.requests.map(\.query) == (1...3).map { "kind=x&page=\($0)&per_page=100" })
        }
    }

    // MARK: - Helpers

    private func expectCrawl(_ paged: PagedUpstream, extra: String = "") async throws {
        try await withTestUpstream({ paged.reply($0) }) { upstream in
            try await expectCrawl(paged, on: upstream, extra: extra)
        }
    }

    /// Fetches the whole list through a gateway and compares it with the upstream's items.
    private func expectCrawl(_ paged: PagedUpstream, on upstream: TestUpstream, extra: String = "") async throws {
        let yaml = gatewayYAML(upstream: upstream.baseURL + paged.path, route: paged.routeKeys(extra))
        try await withGateway(yaml) { client, _ in
            let response = try await client.execute(uri: "/objects?pageSize=500", method: .get)
            #expect(response.status == .ok)
            #expect(try response.json.paging["totalCount"] as? Int == paged.elements.count)
            expectSameItems(try rawItems(response.text), Array(paged.elements.prefix(500)))
            #expect(response.header("Cache-Status") == "folio; fwd=miss; stored")
        }
        #expect(upstream.requestCount == paged.expectedRequests)
        // Each page is asked for once, first to last.
        let indexes = upstream.requests.map(paged.pageIndex)
        if paged.total {
            #expect(indexes.first == 0)
            #expect(Set(indexes) == Set(0..<paged.expectedRequests))
        } else {
            #expect(indexes == Array(0..<paged.expectedRequests))
        }
    }
}
