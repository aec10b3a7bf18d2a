/// How the cache answered one list request (docs/API.md, "Cache-Status"). One value renders
/// the `Cache-Status` header and labels the `folio_cache_lookups_total` metric, so the two
/// never disagree.
enum CacheOutcome: Sendable, Equatable {
    /// A snapshot served without asking upstream: `ttl` seconds of freshness left, negative
    /// once stale (served while a refresh runs) or for a superseded snapshot answering its
    /// pinned link.
    case hit(ttl: Int64)
    /// Filled by this request: the first list for the key.
    case stored
    /// A stale list replaced by this request's fetch.
    case refetched
    /// Waited on another request's fill.
    case collapsed
    /// A stale list confirmed by a 304; `ttl` is the freshness it granted.
    case revalidated(ttl: Int64)
    /// The upstream's answer may not be stored.
    case uncacheable
    /// Waited on another request's fill whose answer may not be shared, then fetched its own,
    /// which may not be stored either (the header and label of `uncacheable`).
    case uncacheableAfterWaiting
    /// Credentials bypassed the cache (`authorized: bypass`), whatever the fetch then answered;
    /// also a path no route matches, forwarded to the fallback upstream (no cache lookup: it
    /// has no route to count it under).
    case bypass
    /// An unsafe method forwarded upstream (docs/API.md, "Methods"): no cache lookup.
    case forwarded
    /// A refresh failed with `status` and the stale list was served instead (`staleIfError`);
    /// `ttl` is minus the seconds past freshness. `waited`: the failed fill was another
    /// request's (the header does not say so; `folio_coalesced_waiters_total` counts it).
    case staleOnError(status: Int, ttl: Int64, waited: Bool = false)
    /// The fill failed with `status` (an upstream error answer or a problem) and nothing was
    /// servable; `waited` as for `staleOnError`.
    case missFailed(status: Int, waited: Bool = false)

    /// The `Cache-Status` field value.
    var header: String {
        switch self {
        case .hit(let ttl): "folio; hit; ttl=" + String(ttl)
        case .stored: "folio; fwd=miss; stored"
        case .refetched: "folio; fwd=stale; fwd-status=200; stored"
        case .collapsed: "folio; fwd=miss; collapsed"
        case .revalidated(let ttl): "folio; fwd=stale; fwd-status=304; ttl=\(ttl)"
        case .uncacheable, .uncacheableAfterWaiting: "folio; fwd=uri-miss"
        case .bypass: "folio; fwd=bypass"
        case .forwarded: "folio; fwd=request"
        case .staleOnError(let status, let ttl, _): "folio; fwd=stale; fwd-status=\(status); ttl=\(ttl)"
        case .missFailed(let status, _): "folio; fwd=miss; fwd-status=\(status)"
        }
    }

    /// The metric's `result` label.
    var result: CacheResult {
        switch self {
        case .hit(let ttl): ttl < 0 ? .stale : .hit
        case .stored, .missFailed: .miss
        case .refetched: .refetched
        case .collapsed: .collapsed
        case .revalidated: .revalidated
        case .uncacheable, .uncacheableAfterWaiting: .uncacheable
        case .bypass, .forwarded: .bypass
        case .staleOnError: .stale
        }
    }

    /// Whether the cache was consulted, so `folio_cache_lookups_total` counts it: not for a
    /// forward.
    var isLookup: Bool { self != .forwarded }

    /// Whether the request waited on another request's fill, whatever came of it.
    var waited: Bool {
        switch self {
        case .collapsed, .uncacheableAfterWaiting: true
        case .staleOnError(_, _, let waited), .missFailed(_, let waited): waited
        default: false
        }
    }

    /// The outcome of a direct, uncached fetch that failed with `status`. The field carries
    /// exactly the parameters of its row (docs/API.md, "Cache-Status"): a bypass stays `fwd=bypass`, as when the
    /// upstream's own error is passed through; any other failed fetch is the failed fill's
    /// `fwd=miss; fwd-status=S`.
    func failed(with status: Int) -> CacheOutcome {
        self == .bypass ? .bypass : .missFailed(status: status, waited: waited)
    }
}
