/// What selects one cached list (docs/CACHING.md, "One snapshot per key"): the route, path parameters, `forwardQuery`
/// values, `vary` header values and credential partition, and the route settings that shape
/// the list (`variant`).
///
/// The rendered upstream URL already carries the path parameters and forwarded query, so it
/// stands for both.
public struct CacheKey: Hashable, Sendable {
    public var route: String
    public var upstreamURL: String
    public var varyValues: [String]
    /// nil: the anonymous/shared partition; otherwise a hash of the credential headers.
    public var partition: String?
    /// A digest of the route settings that decide which list the key holds (`items`, `sort`, `upstreamPaging`,
    /// `authorized`, the `vary` names): replicas whose configs differ there, as during a rolling change, never share a
    /// snapshot. The gateway sets it from the route (`CompiledRoute.listVariant`).
    public var variant: String

    public init(
        route: String, upstreamURL: String, varyValues: [String] = [], partition: String? = nil, variant: String = ""
    ) {
        self.route = route
        self.upstreamURL = upstreamURL
        self.varyValues = varyValues
        self.partition = partition
        self.variant = variant
    }
}
