import FolioConfiguration
import FolioEngine
import Logging
import Tracing

/// Turns a route's upstream list into a snapshot: one fetch, or a crawl of every page, indexed
/// while it streams, revalidated with the previous snapshot's validators, and kept as fresh as
/// the answer allows.
///
/// The pipeline decides how to fill, never when: that is `CachePolicy` and `FillCoalescer`'s
/// part. It knows no HTTP server and no cache, so its unit tests need only an `Upstream`.
struct FillPipeline: Sendable {
    let upstream: any Upstream
    let limits: Configuration.Limits
    let tracer: any Tracer
    let logger: Logger
    let now: @Sendable () -> ContinuousClock.Instant
    /// Called after every fill, stored or failed: its download buffers (a batch of 64 KiB reads
    /// per list being indexed) went back to malloc, which keeps them resident until trimmed
    /// (concurrent failed fills of 17 MB lists left 70 MB behind; docs/benchmarks-history.md, "Fifteenth
    /// session").
    let fillEnded: @Sendable () -> Void

    init(
        upstream: any Upstream, limits: Configuration.Limits, tracer: any Tracer = NoOpTracer(), logger: Logger,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        fillEnded: @escaping @Sendable () -> Void = { MemoryReturner.shared.freed() }
    ) {
        self.upstream = upstream
        self.limits = limits
        self.tracer = tracer
        self.logger = logger
        self.now = now
        self.fillEnded = fillEnded
    }

    /// Folds the route's `searchable` fields on a fill worker, after the list is answered:
    /// the first `?q=` then only scans the column. Counted against `cache.maxBytes` at the
    /// next recount (any request that builds something).
    static func prepareSearch(_ indexes: SnapshotIndexes, _ fields: [FieldPath]) {
        guard !fields.isEmpty else { return }
        FillWorkers.shared.execute { indexes.prepareSearch(in: fields) }
    }

    /// Most bytes of an error answer's body kept to pass it through.
    var errorBodyLimit: Int { min(limits.maxUpstreamBytes, 1 << 20) }

    /// Fetches (or crawls) `plan`'s list. A stale `previous` with validators is revalidated: a
    /// 304 renews it without a body, and a list with its token keeps its indexes.
    func fill(_ plan: FillPlan, route: CompiledRoute, previous: Snapshot?) async throws -> FillResult {
        defer { fillEnded() }
        if let paging = route.config.upstreamPaging {
            return try await crawl(plan, route: route, paging: paging, previous: previous)
        }
        return try await fetch(plan, route: route, previous: previous)
    }

    /// What an upstream answer's caching headers allow for this plan's list.
    func freshness(of head: UpstreamHead, plan: FillPlan, route: CompiledRoute) -> Freshness {
        Freshness.of(
            header: { name in head.headers[name].isEmpty ? nil : head.headers[name].joined(separator: ", ") },
            defaultTTL: route.config.cache.ttl,
            credentialPartition: plan.key?.partition != nil,
            sharedWithCredentials: plan.sharedWithCredentials)
    }

    /// A received list as the key's newest snapshot (or an uncacheable one), fresh as
    /// `freshness` says.
    func snapshot(
        _ list: ItemList, token: String, route: CompiledRoute, previous: Snapshot?, freshness: Freshness
    ) -> FillResult {
        let now = now()
        if let previous, previous.token == token, freshness.storable {
            // Same content: keep the existing snapshot (and its memory) with new freshness.
            return .stored(previous.renewed(at: now, freshness: freshness))
        }
        let indexes = SnapshotIndexes(list: list, sectionKey: route.sectionKey)
        // The route's own order is built once per fill, before the snapshot is shared, so
        // its bytes count against `cache.maxBytes` and no page request waits for it.
        indexes.prepare(route.defaultSort)
        Self.prepareSearch(indexes, route.config.searchable)
        let snapshot = Snapshot(
            list: list, token: token, storedAt: now, freshUntil: now + freshness.lifetime,
            etag: freshness.etag, lastModified: freshness.lastModified, mustRevalidate: freshness.mustRevalidate,
            initialAge: freshness.age, indexes: indexes)
        return freshness.storable ? .stored(snapshot) : .uncacheable(snapshot)
    }
}
