import AsyncHTTPClient
import Crypto
import FolioEngine
import HTTPTypes
import Hummingbird
import NIOHTTP1

/// Where a list request gets its snapshot from.
enum Resolution: Sendable {
    case served(Snapshot, CacheOutcome, age: Int?)
    case upstream(UpstreamAnswer, CacheOutcome)
    case gone(current: Snapshot, CacheOutcome)
    /// Nothing to serve: the fill failed and no stale list may answer.
    case failed(FolioError, CacheOutcome)
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
    /// headers (docs/API.md, "Proxy headers") and `Accept: application/json`.
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
    func resolve(_ plan: FillPlan, token: String?, route: RouteRuntime) async -> Resolution {
        let settings = route.config.cache
        let fetch: @Sendable (Snapshot?) async throws -> FillResult = { [self] previous in
            try await self.measuringUpstream(route.metrics, outcome: \.upstreamOutcome) {
                try await self.fetchList(plan, route: route, previous: previous)
            }
        }
        guard let key = plan.key else {
            return await direct(fetch, token: token, outcome: .bypass())
        }
        let now = cache.now()
        let current = await cache.current(key)
        if token == nil || token == current?.token, let current {
            switch CachePolicy.decide(
                freshUntil: current.freshUntil, mustRevalidate: current.mustRevalidate, now: now,
                staleWhileRevalidate: settings.staleWhileRevalidate)
            {
            case .fresh:
                return .served(current, .hit(ttl: current.ttl(at: now)), age: current.age(at: now))
            case .serveStaleAndRefresh:
                cache.refreshInBackground(key, previous: current, retention: settings.snapshotRetention, fetch: fetch)
                return .served(current, .hit(ttl: current.ttl(at: now)), age: current.age(at: now))
            case .fill:
                break
            }
        } else if let token {
            if let pinned = await cache.retained(key, token: token) {
                return Self.retainedHit(pinned, now: now)
            }
            // A fresh list that lacks the token: 410 at once, so random tokens cannot drive
            // upstream traffic.
            if let current, current.isFresh(at: now) {
                return .gone(current: current, .hit(ttl: current.ttl(at: now)))
            }
        }

        let (result, role) = await cache.fill(
            key, previous: current, retention: settings.snapshotRetention, fetch: fetch)
        let afterFill = cache.now()
        let staleServable: (Snapshot, Duration)? = current.flatMap { current in
            CachePolicy.staleness(
                ifErrorFreshUntil: current.freshUntil, mustRevalidate: current.mustRevalidate, now: afterFill,
                staleIfError: settings.staleIfError
            ).map { (current, $0) }
        }
        switch result {
        case .success(.stored(let snapshot)):
            let outcome: CacheOutcome
            switch role {
            case .collapsed: outcome = .collapsed
            case .leader: outcome = current == nil ? .stored : .refetched
            }
            if let token, token != snapshot.token {
                return await pinnedElsewhere(key, token: token, current: snapshot, outcome: outcome)
            }
            return .served(snapshot, outcome, age: nil)
        case .success(.revalidated(let snapshot)):
            // The freshness the 304 granted (zero for `no-cache`), not a negative ttl: the
            // answer was just confirmed upstream.
            let outcome: CacheOutcome =
                role == .leader ? .revalidated(ttl: max(0, snapshot.ttl(at: snapshot.storedAt))) : .collapsed
            if let token, token != snapshot.token {
                return await pinnedElsewhere(key, token: token, current: snapshot, outcome: outcome)
            }
            return .served(snapshot, outcome, age: snapshot.age(at: cache.now()))
        case .success(.uncacheable(let snapshot)):
            if role == .collapsed {
                // Never hand one requester's uncacheable list to another: fetch our own.
                return await direct(fetch, token: token, outcome: .uncacheable())
            }
            if let token, token != snapshot.token {
                return await pinnedElsewhere(key, token: token, current: snapshot, outcome: .uncacheable())
            }
            return .served(snapshot, .uncacheable(), age: nil)
        case .success(.upstream(let answer)):
            if let (stale, staleness) = staleServable, token == nil || token == stale.token {
                return .served(
                    stale, .staleOnError(status: answer.status, ttl: -staleness.staleSeconds),
                    age: Int((cache.now() - stale.storedAt).wholeSeconds))
            }
            return .upstream(answer, .missFailed(status: answer.status))
        case .failure(let error):
            let folioError = Self.folioError(error)
            if let (stale, staleness) = staleServable, token == nil || token == stale.token {
                return .served(
                    stale, .staleOnError(status: folioError.status, ttl: -staleness.staleSeconds),
                    age: Int((cache.now() - stale.storedAt).wholeSeconds))
            }
            return .failed(folioError, .missFailed(status: folioError.status))
        }
    }

    /// A superseded snapshot answering its pinned link: `ttl` counts from when it was superseded.
    private static func retainedHit(_ pinned: RetainedSnapshot, now: ContinuousClock.Instant) -> Resolution {
        .served(pinned.snapshot, .hit(ttl: -(now - pinned.supersededAt).staleSeconds), age: pinned.snapshot.age(at: now))
    }

    /// A pinned request whose token is not the list its fill produced. The fill it triggered (or
    /// joined) may just have superseded the pinned snapshot: while the store still holds it,
    /// the request is answered from it; only a token the store no longer holds is 410.
    private func pinnedElsewhere(
        _ key: CacheKey, token: String, current: Snapshot, outcome: CacheOutcome
    ) async -> Resolution {
        let now = cache.now()
        if let pinned = await cache.retained(key, token: token) { return Self.retainedHit(pinned, now: now) }
        // An uncacheable refill leaves the pinned list current.
        if let held = await cache.current(key), held.token == token {
            return .served(held, .hit(ttl: held.ttl(at: now)), age: held.age(at: now))
        }
        return .gone(current: current, outcome)
    }

    /// Fetches without the cache (credentials under `bypass`, or uncacheable answers).
    private func direct(
        _ fetch: @Sendable (Snapshot?) async throws -> FillResult, token: String?, outcome: CacheOutcome
    ) async -> Resolution {
        let result: FillResult
        do {
            result = try await fetch(nil)
        } catch {
            let folioError = Self.folioError(error)
            return .failed(folioError, outcome.failed(with: folioError.status))
        }
        switch result {
        case .stored(let snapshot), .uncacheable(let snapshot), .revalidated(let snapshot):
            if let token, token != snapshot.token { return .gone(current: snapshot, outcome) }
            return .served(snapshot, outcome, age: nil)
        case .upstream(let answer):
            return .upstream(answer, outcome)
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
