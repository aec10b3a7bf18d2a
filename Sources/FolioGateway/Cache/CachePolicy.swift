/// The cache's decisions for one list request, from a snapshot's instants, the route's settings and
/// now (README, "Caching"). Pure: no clock is read here, so every row has a table test.
enum CachePolicy {
    /// What a request does with the key's current snapshot before asking upstream.
    enum Decision: Sendable, Equatable {
        /// Serve it: fresh.
        case fresh
        /// Serve it now and refresh it in the background (`staleWhileRevalidate`, or a request
        /// pinned to this very snapshot).
        case serveStaleAndRefresh
        /// Go upstream first (revalidate with validators, else refetch), waiting for the answer.
        case fill
    }

    /// The decision for a snapshot fresh until `freshUntil` at `now`. A `must-revalidate`
    /// (or `no-cache`) list is never served stale to an unpinned request. A request `pinned`
    /// to this snapshot (`?snapshot=` with its token) is answered from it however stale: a
    /// refresh cannot change what the token names, so it runs in the background and the
    /// snapshot it supersedes stays retained (docs/API.md, "Snapshots").
    static func decide(
        freshUntil: ContinuousClock.Instant, mustRevalidate: Bool, now: ContinuousClock.Instant,
        staleWhileRevalidate: Duration, pinned: Bool = false
    ) -> Decision {
        if now < freshUntil { return .fresh }
        if pinned { return .serveStaleAndRefresh }
        if !mustRevalidate, now - freshUntil <= staleWhileRevalidate { return .serveStaleAndRefresh }
        return .fill
    }

    /// How long past freshness the snapshot is, when it may still answer because a refresh
    /// failed (`staleIfError`); nil when it may not.
    static func staleness(
        ifErrorFreshUntil freshUntil: ContinuousClock.Instant, mustRevalidate: Bool, now: ContinuousClock.Instant,
        staleIfError: Duration
    ) -> Duration? {
        let stale = now - freshUntil
        return !mustRevalidate && stale <= staleIfError ? stale : nil
    }
}
