import FolioConfiguration
import FolioEngine
import Tracing

extension FillPipeline {
    /// Fills a route with `upstreamPaging` by crawling all its pages
    /// (docs/CONFIG.md, "Crawl behaviour worth knowing").
    ///
    /// The first page's non-2xx answer is passed through like a single fetch's; any later
    /// failure fails the whole fill, so the cache keeps (and may serve within `staleIfError`)
    /// the snapshot it had. The list is as fresh as its shortest-lived page.
    func crawl(
        _ plan: FillPlan, route: CompiledRoute, paging: Configuration.UpstreamPaging, previous: Snapshot?
    ) async throws -> FillResult {
        var logger = self.logger
        logger[metadataKey: "folio.route"] = "\(route.name)"
        let crawler = Crawler(
            paging: paging, upstream: upstream, url: plan.url, headers: plan.headers,
            items: route.itemsPointer, limits: route.indexLimits, sort: route.config.sort.texts,
            crawlTimeout: limits.crawlTimeout, errorBodyLimit: errorBodyLimit,
            pageFreshness: { [self] head in freshness(of: head, plan: plan, route: route) }, logger: logger)
        // One span over the crawl; each page's fetch is a child of it.
        let outcome = try await tracer.withSpan("crawl \(route.name)") { span in
            let outcome = try await crawler.run()
            if case .list(let list, _, _) = outcome { span.attributes[SpanAttributeName.items] = list.count }
            return outcome
        }
        switch outcome {
        case .upstream(let head, let body):
            return .upstream(UpstreamAnswer(head: head, body: body))
        case .list(let list, let token, let freshness):
            return await FillWorkers.shared.run { [self] in
                snapshot(list, token: token, route: route, previous: previous, freshness: freshness)
            }
        }
    }
}
