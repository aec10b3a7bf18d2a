/// The `result` label of `folio_cache_lookups_total`: how the cache answered a list request,
/// from its `CacheOutcome` (which also writes the `Cache-Status` header).
enum CacheResult: Int, CaseIterable, Sendable {
    /// Fresh snapshot (`folio; hit; ttl=N`).
    case hit
    /// A stale or superseded snapshot served (`hit; ttl=-N`, or `fwd=stale` after a failed refresh).
    case stale
    /// A stale snapshot confirmed by a 304.
    case revalidated
    /// A stale snapshot replaced by a new fetch (`fwd=stale; fwd-status=200; stored`).
    case refetched
    /// Filled by this request, or the fill failed (`fwd=miss`).
    case miss
    /// Waited on another request's fill (`fwd=miss; collapsed`).
    case collapsed
    /// The upstream answer may not be cached (`fwd=uri-miss`).
    case uncacheable
    /// Credentials bypassed the cache (`fwd=bypass`).
    case bypass

    var label: String {
        switch self {
        case .hit: "hit"
        case .stale: "stale"
        case .revalidated: "revalidated"
        case .refetched: "refetched"
        case .miss: "miss"
        case .collapsed: "collapsed"
        case .uncacheable: "uncacheable"
        case .bypass: "bypass"
        }
    }
}
