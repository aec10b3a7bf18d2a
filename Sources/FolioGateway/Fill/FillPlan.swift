import FolioConfiguration
import FolioEngine
import HTTPTypes
import NIOCore
import NIOHTTP1

/// How to fill the list of one request: its cache key (nil: not cached at all) and the
/// upstream request that fetches it.
struct FillPlan: Sendable {
    var key: CacheKey?
    var url: String
    /// The upstream request's headers, built only when the upstream is asked: a cached page
    /// never needs them.
    var headers: HTTPHeaders { makeHeaders() }
    let makeHeaders: @Sendable () -> HTTPHeaders
    /// Credentials on a route that shares one list for everyone (`authorized: shared`).
    var sharedWithCredentials = false
}

extension FillPlan {
    /// The plan for a list request on `route`: the upstream URL with its placeholders and
    /// forwarded query, the headers that select the list, and the key its snapshot is kept under.
    init(
        _ request: HTTPRequest, route: CompiledRoute, match: RouteMatch, parameters: [QueryParameter],
        peer: SocketAddress?, trustedProxies: [CIDR], requestID: String
    ) {
        let list = ListSelector(request.headerFields, route: route, match: match, parameters: parameters)
        // Only what selects the list goes upstream: vary headers, and credentials when the
        // route lets them reach it. Arbitrary client headers would make a shared list depend
        // on whoever filled it.
        let fields = request.headerFields
        let makeHeaders: @Sendable () -> HTTPHeaders = {
            var client = HTTPHeaders()
            for (name, value) in zip(route.varyNames, list.varyValues) where !value.isEmpty {
                client.add(name: name, value: value)
            }
            if let authorization = list.authorization { client.add(name: "Authorization", value: authorization) }
            if let cookie = list.cookie { client.add(name: "Cookie", value: cookie) }
            if let xff = fields[.xForwardedFor] { client.add(name: "X-Forwarded-For", value: xff) }
            if let forwardedHeader = fields[.forwarded] { client.add(name: "Forwarded", value: forwardedHeader) }
            // The client's `Connection` goes along into the hop-by-hop filter, which drops what
            // it names (a forwarding-chain field too) and then `Connection` itself.
            for value in fields[values: .connection] { client.add(name: "Connection", value: value) }
            // The peer's text and trust, only when the upstream is asked.
            let address = peer?.ipAddress
            return Self.listRequestHeaders(
                client, peer: address, peerIsTrusted: trustedProxies.trusts(address), requestID: requestID)
        }
        self.init(
            key: list.key(route: route), url: list.url, makeHeaders: makeHeaders,
            sharedWithCredentials: list.credentialed && route.config.authorized == .shared)
    }

    /// What a list fetch sends upstream: the client headers that select the list, the proxy
    /// headers (docs/API.md, "Proxy headers") and `Accept: application/json`.
    static func listRequestHeaders(
        _ client: HTTPHeaders, peer: String?, peerIsTrusted: Bool, requestID: String
    ) -> HTTPHeaders {
        var headers = ProxyHeaders.upstreamRequestHeaders(
            from: client, peer: peer, peerIsTrusted: peerIsTrusted, requestID: requestID)
        headers.replaceOrAdd(name: "Accept", value: "application/json")
        return headers
    }
}
