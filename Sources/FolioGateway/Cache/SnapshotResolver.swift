import FolioEngine

/// Where a list request gets its snapshot from.
enum Resolution: Sendable {
    case served(Snapshot, CacheOutcome, age: Int?)
    case upstream(UpstreamAnswer, CacheOutcome)
    case gone(current: Snapshot, CacheOutcome)
    /// Nothing to serve: the fill failed and no stale list may answer.
    case failed(FolioError, CacheOutcome)
}

/// Finds the snapshot a list request is answered from: the cache's current or retained one, a
/// fill it starts or joins (one per key), a stale one when the fill fails, or a direct fetch for
/// requests the cache must not serve. `CachePolicy` decides from the instants; this part acts
/// on the decision. No HTTP: its unit tests use an in-memory `Upstream` and a test clock.
struct SnapshotResolver: Sendable {
    let cache: FillCoalescer
    let pipeline: FillPipeline
    let metrics: GatewayMetrics

    /// The fresh hit a request gets from a snapshot the store holds in memory, found without
    /// waiting (`KeptAnswerHandler`); nil when anything else must happen (then `resolve`, whose
    /// fresh case gives the same answer).
    func resolveHeld(_ key: CacheKey, token: String?, route: CompiledRoute) -> Resolution? {
        guard let current = cache.store.currentIfHeld(key), token == nil || token == current.token
        else { return nil }
        let now = cache.now()
        let decision = CachePolicy.decide(
            freshUntil: current.freshUntil, mustRevalidate: current.mustRevalidate, now: now,
            staleWhileRevalidate: route.config.cache.staleWhileRevalidate)
        guard decision == .fresh else { return nil }
        return Self.hit(current, at: now)
    }

    /// Finds the snapshot for a request: from the cache, a coalesced fill, or a direct fetch.
    func resolve(_ plan: FillPlan, token: String?, route: CompiledRoute) async -> Resolution {
        let settings = route.config.cache
        let terms = Self.terms(route)
        let fetch = fetcher(plan, route: route)
        guard let key = plan.key else {
            return await direct(fetch, token: token, outcome: .bypass)
        }
        let now = cache.now()
        let current = await cache.current(key)
        if token == nil || token == current?.token, let current {
            switch CachePolicy.decide(
                freshUntil: current.freshUntil, mustRevalidate: current.mustRevalidate, now: now,
                staleWhileRevalidate: settings.staleWhileRevalidate, pinned: token != nil)
            {
            case .fresh:
                return Self.hit(current, at: now)
            case .serveStaleAndRefresh:
                cache.refreshInBackground(key, previous: current, terms: terms, fetch: fetch)
                return Self.hit(current, at: now)
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

        let (result, role) = await cache.fill(key, previous: current, terms: terms, fetch: fetch)
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
        case .success(.revalidated(let snapshot, let renews)):
            // The freshness the 304 granted (zero for `no-cache`, and for a 304 that renews
            // nothing), not a negative ttl: the answer was just confirmed upstream.
            let ttl = renews ? max(0, snapshot.ttl(at: snapshot.storedAt)) : 0
            let outcome: CacheOutcome = role == .leader ? .revalidated(ttl: ttl) : .collapsed
            if let token, token != snapshot.token {
                return await pinnedElsewhere(key, token: token, current: snapshot, outcome: outcome)
            }
            return .served(snapshot, outcome, age: snapshot.age(at: cache.now()))
        case .success(.uncacheable(let snapshot)):
            if role == .collapsed {
                // Never hand one requester's uncacheable list to another: fetch our own.
                return await direct(fetch, token: token, outcome: .uncacheableAfterWaiting)
            }
            if let token, token != snapshot.token {
                return await pinnedElsewhere(key, token: token, current: snapshot, outcome: .uncacheable)
            }
            return .served(snapshot, .uncacheable, age: nil)
        case .success(.unstored(let snapshot)):
            // Storable but not stored (a drop or reload came, or too large): its waiters are
            // served it, as requests that joined before the drop or reload.
            let outcome: CacheOutcome = role == .collapsed ? .collapsed : .uncacheable
            if let token, token != snapshot.token {
                return await pinnedElsewhere(key, token: token, current: snapshot, outcome: outcome)
            }
            return .served(snapshot, outcome, age: nil)
        case .success(.shared(let snapshot, let waited)):
            // Stored by another replica: no upstream request was made for this answer.
            let outcome: CacheOutcome =
                waited || role == .collapsed ? .collapsed : .hit(ttl: snapshot.ttl(at: afterFill))
            if let token, token != snapshot.token {
                return await pinnedElsewhere(key, token: token, current: snapshot, outcome: outcome)
            }
            return .served(snapshot, outcome, age: snapshot.age(at: afterFill))
        case .success(.upstream(let answer)):
            if let (stale, staleness) = staleServable, token == nil || token == stale.token {
                return .served(
                    stale,
                    .staleOnError(status: answer.status, ttl: -staleness.staleSeconds, waited: role == .collapsed),
                    age: stale.age(at: cache.now()))
            }
            return .upstream(answer, .missFailed(status: answer.status, waited: role == .collapsed))
        case .failure(let error):
            let folioError = FolioError.mapping(error)
            if let (stale, staleness) = staleServable, token == nil || token == stale.token {
                return .served(
                    stale,
                    .staleOnError(status: folioError.status, ttl: -staleness.staleSeconds, waited: role == .collapsed),
                    age: stale.age(at: cache.now()))
            }
            return .failed(folioError, .missFailed(status: folioError.status, waited: role == .collapsed))
        }
    }

    /// How a fill of `route` is timed and kept.
    static func terms(_ route: CompiledRoute) -> FillCoalescer.FillTerms {
        let settings = route.config.cache
        return FillCoalescer.FillTerms(
            timeout: route.fillTimeout, retention: settings.snapshotRetention,
            staleFor: max(settings.staleWhileRevalidate, settings.staleIfError))
    }

    /// What fetches `plan`'s list from upstream, measured.
    func fetcher(_ plan: FillPlan, route: CompiledRoute) -> @Sendable (Snapshot?) async throws -> FillResult {
        { [self] previous in
            try await route.metrics.activity.filling(FillResult.activity) {
                try await metrics.measuringUpstream(route.metrics, outcome: \.upstreamOutcome) {
                    try await pipeline.fill(plan, route: route, previous: previous)
                }
            }
        }
    }

    /// The key's newest snapshot, refreshed first when it is stale (joining a fill in flight, or
    /// another replica's): what a watched key's refresher asks (docs/API.md, "Watching a
    /// list"). Nil when there is nothing newer to tell: the refresh failed, or its list may not
    /// be stored.
    func refreshed(_ plan: FillPlan, route: CompiledRoute) async -> Snapshot? {
        guard let key = plan.key else { return nil }
        let current = await cache.current(key)
        if let current, current.isFresh(at: cache.now()) { return current }
        let (result, _) = await cache.fill(
            key, previous: current, terms: Self.terms(route), fetch: fetcher(plan, route: route))
        switch result {
        case .success(.stored(let snapshot)), .success(.revalidated(let snapshot, _)),
            .success(.shared(let snapshot, _)):
            return snapshot
        default:
            return nil
        }
    }

    /// The key's current snapshot served as it is.
    private static func hit(_ current: Snapshot, at now: ContinuousClock.Instant) -> Resolution {
        .served(current, .hit(ttl: current.ttl(at: now)), age: current.age(at: now))
    }

    /// A superseded snapshot answering its pinned link: `ttl` counts from when it was superseded.
    private static func retainedHit(_ pinned: RetainedSnapshot, now: ContinuousClock.Instant) -> Resolution {
        .served(
            pinned.snapshot, .hit(ttl: -(now - pinned.supersededAt).staleSeconds), age: pinned.snapshot.age(at: now))
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
        if let held = await cache.current(key), held.token == token { return Self.hit(held, at: now) }
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
            let folioError = FolioError.mapping(error)
            return .failed(folioError, outcome.failed(with: folioError.status))
        }
        switch result {
        case .stored(let snapshot), .uncacheable(let snapshot), .unstored(let snapshot), .revalidated(let snapshot, _),
            .shared(let snapshot, _):
            if let token, token != snapshot.token { return .gone(current: snapshot, outcome) }
            return .served(snapshot, outcome, age: nil)
        case .upstream(let answer):
            return .upstream(answer, outcome)
        }
    }
}
