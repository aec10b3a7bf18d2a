import Testing

@testable import FolioGateway

/// The cache's decisions (README, "Caching") as a table: a snapshot fresh until t0 + 10 s, asked at
/// various instants.
@Suite("CachePolicy decides from instants and settings alone")
struct CachePolicyTests {
    static let t0 = ContinuousClock.now
    static let freshUntil = t0 + .seconds(10)

    @Test(arguments: [
        // (now after t0, must-revalidate, staleWhileRevalidate, decision)
        (Duration.seconds(0), false, Duration.seconds(30), CachePolicy.Decision.fresh),
        (.milliseconds(9_999), false, .seconds(30), .fresh),
        (.seconds(10), false, .seconds(30), .serveStaleAndRefresh),  // freshness ends at freshUntil
        (.seconds(40), false, .seconds(30), .serveStaleAndRefresh),  // the window's last instant
        (.milliseconds(40_001), false, .seconds(30), .fill),
        (.seconds(11), false, .zero, .fill),
        (.seconds(10), false, .zero, .serveStaleAndRefresh),
        (.seconds(11), true, .seconds(30), .fill),  // must-revalidate is never served stale
        (.seconds(5), true, .seconds(30), .fresh),
    ])
    func decisions(after: Duration, mustRevalidate: Bool, window: Duration, expected: CachePolicy.Decision) {
        let decision = CachePolicy.decide(
            freshUntil: Self.freshUntil, mustRevalidate: mustRevalidate, now: Self.t0 + after,
            staleWhileRevalidate: window)
        #expect(decision == expected)
    }

    /// A request pinned to the snapshot (`?snapshot=` with its token) never waits for the refresh
    /// that a stale snapshot starts: the token names this list whatever the upstream says now.
    @Test(arguments: [
        // (now after t0, must-revalidate, staleWhileRevalidate, decision)
        (Duration.seconds(5), false, Duration.zero, CachePolicy.Decision.fresh),
        (.seconds(11), false, .zero, .serveStaleAndRefresh),  // past the window
        (.seconds(3_600), false, .seconds(30), .serveStaleAndRefresh),
        (.seconds(11), true, .seconds(30), .serveStaleAndRefresh),  // must-revalidate (and no-cache) too
        (.seconds(5), true, .zero, .fresh),
    ])
    func pinnedDecisions(after: Duration, mustRevalidate: Bool, window: Duration, expected: CachePolicy.Decision) {
        let decision = CachePolicy.decide(
            freshUntil: Self.freshUntil, mustRevalidate: mustRevalidate, now: Self.t0 + after,
            staleWhileRevalidate: window, pinned: true)
        #expect(decision == expected)
    }

    @Test func aZeroLifetimeIsNeverFresh() {
        // `no-cache` and max-age=0 lists: fresh until the instant they were stored.
        #expect(
            CachePolicy.decide(
                freshUntil: Self.t0, mustRevalidate: true, now: Self.t0, staleWhileRevalidate: .seconds(30))
                == .fill)
        #expect(
            CachePolicy.decide(freshUntil: Self.t0, mustRevalidate: false, now: Self.t0, staleWhileRevalidate: .zero)
                == .serveStaleAndRefresh)
    }

    @Test(arguments: [
        // (now after t0, must-revalidate, staleIfError, staleness or nil)
        (Duration.seconds(20), false, Duration.seconds(300), Duration?.some(.seconds(10))),
        (.seconds(310), false, .seconds(300), .some(.seconds(300))),
        (.seconds(311), false, .seconds(300), nil),
        (.seconds(20), true, .seconds(300), nil),
        (.seconds(11), false, .zero, nil),
    ])
    func staleIfError(after: Duration, mustRevalidate: Bool, window: Duration, expected: Duration?) {
        let staleness = CachePolicy.staleness(
            ifErrorFreshUntil: Self.freshUntil, mustRevalidate: mustRevalidate, now: Self.t0 + after,
            staleIfError: window)
        #expect(staleness == expected)
    }
}
