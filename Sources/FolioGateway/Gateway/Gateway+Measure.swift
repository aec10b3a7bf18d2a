import Hummingbird

extension Gateway {
    /// Times one upstream exchange (head and body) and counts how it ended, per route.
    func measuringUpstream<T>(
        _ metrics: RouteMetrics, outcome: (T) -> UpstreamOutcome, _ body: () async throws -> T
    ) async throws -> T {
        let start = ContinuousClock.now
        do {
            let value = try await body()
            metrics.upstream(outcome(value), duration: start.duration(to: .now))
            return value
        } catch {
            let folioError = Self.folioError(error)
            metrics.upstream(UpstreamOutcome(failureStatus: folioError.status), duration: start.duration(to: .now))
            self.metrics.breached(folioError.limit)
            throw error
        }
    }
}

extension FillResult {
    var upstreamOutcome: UpstreamOutcome {
        switch self {
        case .stored, .uncacheable, .revalidated: .success
        case .upstream(let answer): UpstreamOutcome(status: answer.status)
        }
    }
}

extension Response {
    /// For a response passed back from an upstream.
    var upstreamOutcome: UpstreamOutcome { UpstreamOutcome(status: status.code) }
}
