import Crypto
import FolioEngine
import HTTPTypes

/// What selects a list request's list: the upstream URL (path parameters and forwarded query),
/// the `vary` header values and the credentials. A cached page needs only its `key`; a fill
/// needs the rest too.
struct ListSelector: Sendable {
    let url: String
    let varyValues: [String]
    let authorization: String?
    let cookie: String?

    var credentialed: Bool { authorization != nil || cookie != nil }

    init(_ fields: HTTPFields, route: CompiledRoute, match: RouteMatch, parameters: [QueryParameter]) {
        var url = route.config.upstream.render(match.parameters)
        let forwarded = Self.forwarded(parameters, names: route.forwardQuery)
        if !forwarded.isEmpty { url += (url.contains("?") ? "&" : "?") + forwarded }
        self.url = url
        // Fields the client's `Connection` names are hop-by-hop (RFC 9110 7.6.1): they neither
        // select the list nor go upstream, as if they were absent.
        let hopByHop = ProxyHeaders.connectionNamed(fields)
        var varyValues: [String] = []
        for name in route.varyNames {
            let field = HTTPField.Name(name).flatMap { hopByHop.contains($0.canonicalName) ? nil : $0 }
            varyValues.append(field.map { fields[values: $0].joined(separator: ", ") } ?? "")
        }
        self.varyValues = varyValues
        authorization = hopByHop.contains("authorization") ? nil : fields[.authorization]
        cookie = hopByHop.contains("cookie") ? nil : fields[.cookie]
    }

    /// The `forwardQuery` parameters as the upstream gets them and the cache key holds them: one list per value
    /// (docs/CACHING.md, "One snapshot per key"), however the client spelled it. Ordered by name (several values of one
    /// name keep their order), and each piece normalized as RFC 3986 6.2.2 allows without changing what it means: a
    /// percent-encoded unreserved character is decoded and other escapes are written in upper case, so `tenant=%61` and
    /// `tenant=a` are one list. Anything else (`+`, reserved characters, their escapes) stays as sent, since upstreams
    /// differ on it.
    static func forwarded(_ parameters: [QueryParameter], names: Set<String>) -> String {
        guard !names.isEmpty else { return "" }
        return parameters.enumerated()
            .filter { names.contains($0.element.key) }
            .sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }
            .map { URIText.normalizingEscapes($0.element.raw) }
            .joined(separator: "&")
    }

    /// The key the list's snapshot is kept under; nil when it is not cached (credentials on a
    /// route that bypasses the cache for them).
    func key(route: CompiledRoute) -> CacheKey? {
        var key = CacheKey(
            route: route.name, upstreamURL: url, varyValues: varyValues, partition: nil, variant: route.listVariant)
        if credentialed {
            switch route.config.authorized {
            case .bypass: return nil
            case .perCredential: key.partition = Self.partition(authorization: authorization, cookie: cookie)
            case .shared: break
            }
        }
        return key
    }

    /// A hash of the credential headers: the raw credential is never kept.
    static func partition(authorization: String?, cookie: String?) -> String {
        var hasher = SHA256()
        hasher.update(data: Array("a:\(authorization ?? "")\nc:\(cookie ?? "")".utf8))
        return FieldDigest.hex(hasher.finalize(), bytes: 16)
    }
}
