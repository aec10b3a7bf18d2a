/// How the cache answered a list request, read back from the `Cache-Status` the gateway already
/// wrote (SPEC 5.2), so the metric and the header can never disagree.
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

    /// nil for answers that did not consult the cache (forwarded unsafe methods, errors Folio
    /// answers itself). Compares bytes only: this runs on every request.
    init?(cacheStatus: String) {
        let bytes = cacheStatus.utf8
        func starts(_ prefix: StaticString) -> Bool {
            prefix.withUTF8Buffer { bytes.starts(with: $0) }
        }
        if starts("folio; hit; ttl=-") {
            self = .stale
        } else if starts("folio; hit") {
            self = .hit
        } else if starts("folio; fwd=miss; collapsed") {
            self = .collapsed
        } else if starts("folio; fwd=miss") {
            self = .miss
        } else if starts("folio; fwd=stale; fwd-status=304") {
            self = .revalidated
        } else if starts("folio; fwd=stale") {
            self = bytes.suffix(6).elementsEqual("stored".utf8) ? .refetched : .stale
        } else if starts("folio; fwd=uri-miss") {
            self = .uncacheable
        } else if starts("folio; fwd=bypass") {
            self = .bypass
        } else {
            return nil
        }
    }
}
