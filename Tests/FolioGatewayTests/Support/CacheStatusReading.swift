@testable import FolioGateway

/// Reads a `Cache-Status` header back into the metric label it stands for, as a client (or a
/// test) sees it. The gateway itself never parses it: `CacheOutcome` writes both.
extension CacheResult {
    /// nil for answers that did not consult the cache (forwarded unsafe methods, errors Folio
    /// answers itself).
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
