import FolioEngine

extension Gateway {
    /// Fills a route with `upstreamPaging` by crawling all its pages (SPEC 4).
    ///
    /// The first page's non-2xx answer is passed through like a single fetch's; any later
    /// failure fails the whole fill, so the cache keeps (and may serve within `staleIfError`)
    /// the snapshot it had. Freshness is the route's `cache.ttl`, as for a single fetch.
    func crawlList(
        _ plan: FillPlan, route: RouteRuntime, paging: Configuration.UpstreamPaging, previous: Snapshot?
    ) async throws -> FillResult {
        var logger = self.logger
        logger[metadataKey: "folio.route"] = "\(route.name)"
        let crawler = Crawler(
            paging: paging, upstream: upstream, url: plan.url, headers: plan.headers,
            items: route.itemsPointer, limits: route.indexLimits, sort: route.config.sort,
            crawlTimeout: configuration.limits.crawlTimeout,
            errorBodyLimit: min(configuration.limits.maxUpstreamBytes, 1 << 20), logger: logger)
        switch try await crawler.run() {
        case .upstream(let head, let body):
            let response = ProxyHeaders.clientResponseHeaders(from: head.headers)
            return .upstream(
                UpstreamAnswer(status: head.status, headers: response.map { ($0.name, $0.value) }, body: body))
        case .list(let list, let token):
            // Crawled lists carry no validators (they are refetched, not revalidated) and
            // are fresh for the route's ttl.
            let freshness = Freshness.of(header: { _ in nil }, defaultTTL: route.config.cache.ttl)
            return storedList(list, token: token, route: route, previous: previous, freshness: freshness)
        }
    }
}
