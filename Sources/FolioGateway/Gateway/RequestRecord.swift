/// What answering one request decided: which route matched and how the cache answered. The
/// gateway writes it while routing and resolving; the responder reads it for metrics, the
/// access log and the request's span.
///
/// Written and read by the request's own task only, one step after another (fills run in
/// tasks of their own and never see it), hence unchecked.
final class RequestRecord: @unchecked Sendable {
    /// Index into the gateway's routes; nil when no route matched.
    var routeIndex: Int?
    /// How the cache answered, or that the request was forwarded; nil for answers that involved
    /// neither (errors before resolving, refusals, a forward Folio refused for its own part).
    var cache: CacheOutcome? {
        didSet { renderedCacheStatus = nil }
    }
    /// The answer's `X-Request-ID`.
    var requestID = ""
    private var renderedCacheStatus: String?
    /// The answer's `Cache-Status` (docs/API.md, "Cache-Status"), rendered from `cache` once:
    /// the answer's field, the access log and the span all read this value.
    var cacheStatus: String? {
        if let renderedCacheStatus { return renderedCacheStatus }
        renderedCacheStatus = cache?.header
        return renderedCacheStatus
    }
    /// The request target's path (no query) once the gateway has read it (the access log reads
    /// it from here instead of reading the target again); nil: read it from the request.
    var path: Substring?
}
