import FolioEngine
import NIOHTTP1

extension FillPipeline {
    /// One GET of the whole list, indexed as it streams in.
    func fetch(_ plan: FillPlan, route: CompiledRoute, previous: Snapshot?) async throws -> FillResult {
        var headers = plan.headers
        let conditional = previous.map { $0.etag != nil || $0.lastModified != nil } ?? false
        if let previous, conditional {
            if let etag = previous.etag { headers.replaceOrAdd(name: "If-None-Match", value: etag) }
            if let lastModified = previous.lastModified {
                headers.replaceOrAdd(name: "If-Modified-Since", value: lastModified)
            }
        }
        let box = IndexerBox(
            ListIndexer(items: route.itemsPointer, limits: route.indexLimits, sort: route.config.sort.texts))
        let (head, sink) = try await upstream.get(plan.url, headers: headers) { [errorBodyLimit] head in
            IndexingSink(head: head, indexer: box, errorBodyLimit: errorBodyLimit)
        }
        try await box.drain()
        var freshness = freshness(of: head, plan: plan, route: route)
        if head.status == 304, conditional, let previous {
            // A 304 updates the stored answer's headers (RFC 9111 4.3.4): without its own
            // Cache-Control or Expires, the stored list's rules (e.g. `no-cache`) still hold.
            if head.headers["cache-control"].isEmpty, head.headers["expires"].isEmpty {
                freshness.lifetime = previous.freshUntil - previous.storedAt
                freshness.mustRevalidate = previous.mustRevalidate
            }
            // One whose fields forbid storing (`no-store`, `private`, `Set-Cookie`, `Vary: *`)
            // confirms the stored list for this fill's requests only: nothing is installed, so
            // neither its freshness nor its stale windows move on.
            guard freshness.storable else { return .revalidated(previous, renews: false) }
            return .revalidated(previous.renewed(at: now(), freshness: freshness), renews: true)
        }
        guard sink.indexes else {
            try UpstreamError.checkPassable(head, url: plan.url)
            return .upstream(UpstreamAnswer(head: head, body: sink.collected))
        }
        _ = try await box.endBody()
        return try await FillWorkers.shared.run { [self, freshness] in
            let (list, token) = try box.finish()
            return snapshot(list, token: token, route: route, previous: previous, freshness: freshness)
        }
    }
}
