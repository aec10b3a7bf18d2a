import AsyncHTTPClient
import FolioEngine
import NIOCore
import NIOHTTP1

extension Gateway {
    /// Fetches the route's upstream list and indexes it while it streams in.
    func fetchList(_ plan: FillPlan, route: RouteRuntime, previous: Snapshot?) async throws -> FillResult {
        if let paging = route.config.upstreamPaging {
            return try await crawlList(plan, route: route, paging: paging, previous: previous)
        }
        let indexer = ListIndexer(items: route.itemsPointer, limits: route.indexLimits, sort: route.config.sort)
        let errorBodyLimit = min(configuration.limits.maxUpstreamBytes, 1 << 20)
        let (head, sink) = try await upstream.get(plan.url, headers: plan.headers) { head in
            FillSink(head: head, indexer: indexer, errorBodyLimit: errorBodyLimit)
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
        return storedList(list, token: token, route: route, previous: previous)
    }

    /// A received list as the key's newest snapshot, fresh for the route's `cache.ttl`.
    func storedList(_ list: ItemList, token: String, route: RouteRuntime, previous: Snapshot?) -> FillResult {
        let now = cache.now()
        let freshUntil = now + route.config.cache.ttl
        if let previous, previous.token == token {
            // Same content: keep the existing snapshot (and its memory) with new freshness.
            return .stored(previous.renewed(storedAt: now, freshUntil: freshUntil))
        }
        return .stored(Snapshot(list: list, token: token, storedAt: now, freshUntil: freshUntil))
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
