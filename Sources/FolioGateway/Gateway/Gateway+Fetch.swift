import AsyncHTTPClient
import FolioEngine
import NIOCore
import NIOHTTP1

extension Gateway {
    /// Fetches the route's upstream list and indexes it while it streams in.
    ///
    /// A stale `previous` with validators is revalidated: a 304 renews it without a body.
    func fetchList(_ plan: FillPlan, route: RouteRuntime, previous: Snapshot?) async throws -> FillResult {
        if let paging = route.config.upstreamPaging {
            return try await crawlList(plan, route: route, paging: paging, previous: previous)
        }
        let indexer = ListIndexer(items: route.itemsPointer, limits: route.indexLimits, sort: route.config.sort)
        let errorBodyLimit = min(configuration.limits.maxUpstreamBytes, 1 << 20)
        var headers = plan.headers
        let conditional = previous.map { $0.etag != nil || $0.lastModified != nil } ?? false
        if let previous, conditional {
            if let etag = previous.etag { headers.replaceOrAdd(name: "If-None-Match", value: etag) }
            if let lastModified = previous.lastModified { headers.replaceOrAdd(name: "If-Modified-Since", value: lastModified) }
        }
        let (head, sink) = try await upstream.get(plan.url, headers: headers) { head in
            FillSink(head: head, indexer: indexer, errorBodyLimit: errorBodyLimit)
        }
        var freshness = freshness(of: head, plan: plan, route: route)
        if head.status == 304, conditional, let previous {
            // A 304 updates the stored answer's headers (RFC 9111 4.3.4): without its own
            // Cache-Control or Expires, the stored list's rules (e.g. `no-cache`) still hold.
            if head.headers["cache-control"].isEmpty, head.headers["expires"].isEmpty {
                freshness.lifetime = previous.freshUntil - previous.storedAt
                freshness.mustRevalidate = previous.mustRevalidate
            }
            return .revalidated(previous.renewed(at: cache.now(), freshness: freshness))
        }
        guard (200..<300).contains(head.status) else {
            let response = ProxyHeaders.clientResponseHeaders(from: head.headers)
            return .upstream(
                UpstreamAnswer(
                    status: head.status,
                    headers: response.map { ($0.name, $0.value) },
                    body: sink.collected))
        }
        let (list, token) = try sink.finish()
        return storedList(list, token: token, route: route, previous: previous, freshness: freshness)
    }

    /// What an upstream answer's caching headers allow for this plan's list.
    func freshness(of head: UpstreamHead, plan: FillPlan, route: RouteRuntime) -> Freshness {
        Freshness.of(
            header: { name in head.headers[name].isEmpty ? nil : head.headers[name].joined(separator: ", ") },
            defaultTTL: route.config.cache.ttl,
            credentialPartition: plan.key?.partition != nil,
            sharedWithCredentials: plan.sharedWithCredentials)
    }

    /// A received list as the key's newest snapshot (or an uncacheable one), fresh as
    /// `freshness` says.
    func storedList(
        _ list: ItemList, token: String, route: RouteRuntime, previous: Snapshot?, freshness: Freshness
    ) -> FillResult {
        let now = cache.now()
        if let previous, previous.token == token, freshness.storable {
            // Same content: keep the existing snapshot (and its memory) with new freshness.
            return .stored(previous.renewed(at: now, freshness: freshness))
        }
        let indexes = SnapshotIndexes(list: list, sectionKey: route.sectionKey)
        // The route's own order is built once per fill, before the snapshot is shared, so
        // its bytes count against `cache.maxBytes` and no page request waits for it.
        _ = indexes.order(route.defaultSort)
        let snapshot = Snapshot(
            list: list, token: token, storedAt: now, freshUntil: now + freshness.lifetime,
            etag: freshness.etag, lastModified: freshness.lastModified, mustRevalidate: freshness.mustRevalidate,
            indexes: indexes)
        return freshness.storable ? .stored(snapshot) : .uncacheable(snapshot)
    }
}

/// Receives an upstream body: a 2xx list goes through the indexer as it streams; any other
/// status is collected (capped) to be passed back.
final class FillSink: UpstreamBodySink, @unchecked Sendable {
    private var indexer: ListIndexer?
    private(set) var collected: [UInt8] = []
    private let errorBodyLimit: Int

    init(head: UpstreamHead, indexer: ListIndexer, errorBodyLimit: Int) {
        self.errorBodyLimit = errorBodyLimit
        if (200..<300).contains(head.status) {
            var indexer = indexer
            if let length = head.headers.first(name: "Content-Length").flatMap(Int.init),
                head.headers.first(name: "Content-Encoding") == nil
            {
                indexer.reserve(additionalBytes: length)
            }
            self.indexer = indexer
        }
    }

    func receive(_ chunk: ByteBuffer) throws {
        if indexer != nil {
            try chunk.withUnsafeReadableBytes { bytes throws(FolioError) in try indexer!.append(bytes) }
        } else if collected.count < errorBodyLimit {
            collected.append(contentsOf: chunk.readableBytesView.prefix(errorBodyLimit - collected.count))
        }
    }

    func finish() throws -> (ItemList, String) {
        guard var indexer else { throw FolioError.badUpstreamBody("no body") }
        self.indexer = nil
        _ = try indexer.endBody()
        return try indexer.finish()
    }
}
