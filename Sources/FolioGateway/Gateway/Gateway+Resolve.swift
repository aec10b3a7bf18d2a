import AsyncHTTPClient
import Crypto
import FolioEngine
import HTTPTypes
import Hummingbird
import NIOHTTP1

/// Where a list request gets its snapshot from.
enum Resolution: Sendable {
    case served(Snapshot, cacheStatus: String, age: Int?)
    case upstream(UpstreamAnswer, cacheStatus: String)
    case gone(current: Snapshot, cacheStatus: String)
}

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

extension Gateway {
    func fillPlan(
        _ request: Request, context: GatewayContext, route: RouteRuntime, match: RouteMatch,
        parameters: [QueryParameter], requestID: String
    ) -> FillPlan {
        var url = route.config.upstream.render(match.parameters)
        let forwarded = parameters.filter { route.forwardQuery.contains($0.key) }
        if !forwarded.isEmpty {
            url += (url.contains("?") ? "&" : "?") + forwarded.map { String($0.raw) }.joined(separator: "&")
        }
        var varyValues: [String] = []
        for name in route.varyNames {
            varyValues.append(HTTPField.Name(name).flatMap { request.headers[values: $0] }?.joined(separator: ", ") ?? "")
        }
        let authorization = request.headers[.authorization]
        let cookie = request.headers[.cookie]
        let credentialed = authorization != nil || cookie != nil
        // Only what selects the list goes upstream: vary headers, and credentials when the
        // route lets them reach it. Arbitrary client headers would make a shared list depend
        // on whoever filled it.
        let fields = request.headers
        let makeHeaders: @Sendable () -> HTTPHeaders = { [self, varyValues] in
            var client = HTTPHeaders()
            for (name, value) in zip(route.varyNames, varyValues) where !value.isEmpty {
                client.add(name: name, value: value)
            }
            if let authorization { client.add(name: "Authorization", value: authorization) }
            if let cookie { client.add(name: "Cookie", value: cookie) }
            if let xff = fields[.xForwardedFor] { client.add(name: "X-Forwarded-For", value: xff) }
            if let forwardedHeader = fields[.forwarded] { client.add(name: "Forwarded", value: forwardedHeader) }
            let peer = context.peerAddress
            return Self.listRequestHeaders(client, peer: peer, peerIsTrusted: isTrusted(peer), requestID: requestID)
        }

        var key: CacheKey? = CacheKey(route: route.name, upstreamURL: url, varyValues: varyValues, partition: nil)
        if credentialed {
            switch route.config.authorized {
            case .bypass: key = nil
            case .perCredential: key?.partition = Self.partition(authorization: authorization, cookie: cookie)
            case .shared: break
            }
        }
        return FillPlan(
            key: key, url: url, makeHeaders: makeHeaders,
            sharedWithCredentials: credentialed && route.config.authorized == .shared)
    }

    /// What a list fetch sends upstream: the client headers that select the list, the proxy
    /// headers (SPEC 6) and `Accept: application/json`.
    static func listRequestHeaders(
        _ client: HTTPHeaders, peer: String?, peerIsTrusted: Bool, requestID: String
    ) -> HTTPHeaders {
        var headers = ProxyHeaders.upstreamRequestHeaders(
            from: client, peer: peer, peerIsTrusted: peerIsTrusted, requestID: requestID)
        headers.replaceOrAdd(name: "Accept", value: "application/json")
        return headers
    }

    /// A hash of the credential headers: the raw credential is never kept.
    static func partition(authorization: String?, cookie: String?) -> String {
        var hasher = SHA256()
        hasher.update(data: Array("a:\(authorization ?? "")\nc:\(cookie ?? "")".utf8))
        return hasher.finalize().prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    func isTrusted(_ peer: String?) -> Bool {
        guard let peer else { return false }
        return configuration.server.trustedProxies.contains { $0.contains(peer) }
    }

    /// Finds the snapshot for a request: from the cache, a coalesced fill, or a direct fetch.
    func resolve(_ plan: FillPlan, token: String?, route: RouteRuntime) async throws -> Resolution {
        let settings = route.config.cache
        let fetch: @Sendable (Snapshot?) async throws -> FillResult = { [self] previous in
            try await self.measuringUpstream(route.metrics, outcome: \.upstreamOutcome) {
                try await self.fetchList(plan, route: route, previous: previous)
            }
        }
        guard let key = plan.key else {
            return try await direct(fetch, token: token, cacheStatus: "folio; fwd=bypass")
        }
        let now = cache.now()
        let current = await cache.current(key)
        if token == nil || token == current?.token, let current {
            if current.isFresh(at: now) {
                return .served(current, cacheStatus: "folio; hit; ttl=\(current.ttl(at: now))", age: current.age(at: now))
            }
            let stale = now - current.freshUntil
            if !current.mustRevalidate, stale <= settings.staleWhileRevalidate {
                cache.refreshInBackground(key, previous: current, retention: settings.snapshotRetention, fetch: fetch)
                return .served(current, cacheStatus: "folio; hit; ttl=\(current.ttl(at: now))", age: current.age(at: now))
            }
        } else if let token {
            if let pinned = await cache.retained(key, token: token) {
                return Self.retainedHit(pinned, now: now)
            }
            // A fresh list that lacks the token: 410 at once, so random tokens cannot drive
            // upstream traffic.
            if let current, current.isFresh(at: now) {
                return .gone(current: current, cacheStatus: "folio; hit; ttl=\(current.ttl(at: now))")
            }
        }

        let (result, role) = await cache.fill(
            key, previous: current, retention: settings.snapshotRetention, fetch: fetch)
        let staleServable: (Snapshot, Duration)? = current.flatMap { current in
            let stale = cache.now() - current.freshUntil
            return !current.mustRevalidate && stale <= settings.staleIfError ? (current, stale) : nil
        }
        switch result {
        case .success(.stored(let snapshot)):
            let status: String
            switch role {
            case .collapsed: status = "folio; fwd=miss; collapsed"
            case .leader: status = current == nil ? "folio; fwd=miss; stored" : "folio; fwd=stale; fwd-status=200; stored"
            }
            if let token, token != snapshot.token {
                return await pinnedElsewhere(key, token: token, current: snapshot, cacheStatus: status)
            }
            return .served(snapshot, cacheStatus: status, age: nil)
        case .success(.revalidated(let snapshot)):
            // The freshness the 304 granted (zero for `no-cache`), not a negative ttl: the
            // answer was just confirmed upstream.
            let status = role == .leader
                ? "folio; fwd=stale; fwd-status=304; ttl=\(max(0, snapshot.ttl(at: snapshot.storedAt)))"
                : "folio; fwd=miss; collapsed"
            if let token, token != snapshot.token {
                return await pinnedElsewhere(key, token: token, current: snapshot, cacheStatus: status)
            }
            return .served(snapshot, cacheStatus: status, age: snapshot.age(at: cache.now()))
        case .success(.uncacheable(let snapshot)):
            if role == .collapsed {
                // Never hand one requester's uncacheable list to another: fetch our own.
                return try await direct(fetch, token: token, cacheStatus: "folio; fwd=uri-miss")
            }
            if let token, token != snapshot.token {
                return await pinnedElsewhere(key, token: token, current: snapshot, cacheStatus: "folio; fwd=uri-miss")
            }
            return .served(snapshot, cacheStatus: "folio; fwd=uri-miss", age: nil)
        case .success(.upstream(let answer)):
            if let (stale, staleness) = staleServable, token == nil || token == stale.token {
                return .served(
                    stale, cacheStatus: "folio; fwd=stale; fwd-status=\(answer.status); ttl=-\(staleness.staleSeconds)",
                    age: Int((cache.now() - stale.storedAt).wholeSeconds))
            }
            return .upstream(answer, cacheStatus: "folio; fwd=miss; fwd-status=\(answer.status)")
        case .failure(let error):
            let folioError = Self.folioError(error)
            if let (stale, staleness) = staleServable, token == nil || token == stale.token {
                return .served(
                    stale, cacheStatus: "folio; fwd=stale; fwd-status=\(folioError.status); ttl=-\(staleness.staleSeconds)",
                    age: Int((cache.now() - stale.storedAt).wholeSeconds))
            }
            throw folioError.adding(header: .init("Cache-Status", "folio; fwd=miss; fwd-status=\(folioError.status)"))
        }
    }

    /// A superseded snapshot answering its pinned link: `ttl` counts from when it was superseded.
    private static func retainedHit(_ pinned: RetainedSnapshot, now: ContinuousClock.Instant) -> Resolution {
        .served(
            pinned.snapshot, cacheStatus: "folio; hit; ttl=-\((now - pinned.supersededAt).staleSeconds)",
            age: pinned.snapshot.age(at: now))
    }

    /// A pinned request whose token is not the list its fill produced. The fill it triggered (or
    /// joined) may just have superseded the pinned snapshot: while the store still holds it,
    /// the request is answered from it; only a token the store no longer holds is 410.
    private func pinnedElsewhere(
        _ key: CacheKey, token: String, current: Snapshot, cacheStatus: String
    ) async -> Resolution {
        let now = cache.now()
        if let pinned = await cache.retained(key, token: token) { return Self.retainedHit(pinned, now: now) }
        // An uncacheable refill leaves the pinned list current.
        if let held = await cache.current(key), held.token == token {
            return .served(held, cacheStatus: "folio; hit; ttl=\(held.ttl(at: now))", age: held.age(at: now))
        }
        return .gone(current: current, cacheStatus: cacheStatus)
    }

    /// Fetches without the cache (credentials under `bypass`, or uncacheable answers).
    private func direct(
        _ fetch: @Sendable (Snapshot?) async throws -> FillResult, token: String?, cacheStatus: String
    ) async throws -> Resolution {
        let result: FillResult
        do {
            result = try await fetch(nil)
        } catch {
            let folioError = Self.folioError(error)
            throw folioError.adding(header: .init("Cache-Status", "\(cacheStatus); fwd-status=\(folioError.status)"))
        }
        switch result {
        case .stored(let snapshot), .uncacheable(let snapshot), .revalidated(let snapshot):
            if let token, token != snapshot.token { return .gone(current: snapshot, cacheStatus: cacheStatus) }
            return .served(snapshot, cacheStatus: cacheStatus, age: nil)
        case .upstream(let answer):
            return .upstream(answer, cacheStatus: cacheStatus)
        }
    }

    static func folioError(_ error: any Error) -> FolioError {
        switch error {
        case let error as FolioError: return error
        case let error as UpstreamError: return error.folioError
        default:
            return FolioError(code: "upstream-failed", status: 502, title: "Upstream failed", detail: "\(error)")
        }
    }
}

extension FolioError {
    func adding(header: HeaderField) -> FolioError {
        FolioError(code: code, status: status, title: title, detail: detail, headers: headers + [header], limit: limit)
    }
}
