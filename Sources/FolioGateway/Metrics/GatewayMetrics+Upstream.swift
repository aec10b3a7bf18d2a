import FolioEngine

extension GatewayMetrics {
    /// Times one upstream exchange (head and body) and counts how it ended, per route, and a
    /// breached limit once.
    func measuringUpstream<T>(
        _ route: RouteMetrics, outcome: (T) -> UpstreamOutcome, _ body: () async throws -> T
    ) async throws -> T {
        let start = ContinuousClock.now
        do {
            let value = try await body()
            route.upstream(outcome(value), duration: start.duration(to: .now))
            return value
        } catch {
            let folioError = FolioError.mapping(error)
            if folioError.isUpstreamFailure {
                route.upstream(UpstreamOutcome(failureStatus: folioError.status), duration: start.duration(to: .now))
            }
            breached(folioError.limit)
            throw error
        }
    }
}

extension FillResult {
    var upstreamOutcome: UpstreamOutcome {
        switch self {
        case .stored, .uncacheable, .unstored, .revalidated, .shared: .success
        case .upstream(let answer): UpstreamOutcome(status: answer.status)
        }
    }
}

extension FolioError {
    /// What a client is answered for any error of a fill or an exchange: Folio's own errors as
    /// they are, upstream failures by their kind, anything else a 502.
    static func mapping(_ error: any Error) -> FolioError {
        switch error {
        case let error as FolioError: error
        case let error as UpstreamError: error.folioError
        default: .upstreamFailed("\(error)")
        }
    }
}

extension FolioError {
    /// Whether the upstream exchange failed (502, 504), as opposed to a request Folio refused
    /// for its own part, e.g. a forwarded body over the limit (400, 413), which is no exchange:
    /// it counts as no upstream fetch and carries no `Cache-Status` (docs/API.md, "Cache-Status").
    var isUpstreamFailure: Bool { status >= 500 }
}
