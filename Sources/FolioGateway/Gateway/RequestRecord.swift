/// What answering one request decided: which route matched and how the cache answered. The
/// gateway writes it while routing and resolving; the responder reads it for metrics, the
/// access log and the request's span.
///
/// Written and read by the request's own task only, one step after another (fills run in
/// tasks of their own and never see it), hence unchecked.
final class RequestRecord: @unchecked Sendable {
    /// Index into the gateway's routes; nil when no route matched.
    var routeIndex: Int?
    /// Nil for answers that did not consult the cache (forwards, errors before resolving).
    var cache: CacheOutcome?
    /// The answer's `X-Request-ID`.
    var requestID = ""
    /// The answer's `Cache-Status` when a served list answer set it (the access log reads it
    /// from here instead of searching the header fields); nil: look in the answer.
    var cacheStatus: String?
    /// The request target's path (no query) once the gateway has read it (the access log reads
    /// it from here instead of reading the target again); nil: read it from the request.
    var path: Substring?
}
