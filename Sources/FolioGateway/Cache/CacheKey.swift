/// What selects one cached list: SPEC 5.1's route, path parameters, `forwardQuery` values,
/// `vary` header values and credential partition.
///
/// The rendered upstream URL already carries the path parameters and forwarded query, so it
/// stands for both.
struct CacheKey: Hashable, Sendable {
    var route: String
    var upstreamURL: String
    var varyValues: [String]
    /// nil: the anonymous/shared partition; otherwise a hash of the credential headers.
    var partition: String?
}
