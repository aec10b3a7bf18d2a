/// When a span batch the collector did not take is sent again (docs/OPERATIONS.md, "Traces"):
/// OTLP's retryable answers (429, 502, 503, 504) and failures without an answer (refused,
/// reset, timed out) are retried with exponential backoff up to `attempts` sends in all; any
/// other answer (a 400 for a malformed batch, a 401) would fail the same way again, so the batch
/// is dropped at once.
struct ExportRetry: Sendable, Equatable {
    /// Sends of one batch at most, the first included.
    var attempts = 5
    /// The wait after the first failure; it doubles after each further one.
    var baseDelay: Duration = .milliseconds(500)
    var maxDelay: Duration = .seconds(8)

    /// What one send came to, short of success.
    enum Failure: Sendable, Equatable {
        /// The collector answered `status`; `retryAfter` is its `Retry-After` in seconds.
        case answered(status: Int, retryAfter: Int?)
        /// No answer: the connection failed or timed out.
        case unanswered
    }

    static func isRetryable(_ failure: Failure) -> Bool {
        switch failure {
        case .unanswered: true
        case .answered(let status, _): [429, 502, 503, 504].contains(status)
        }
    }

    /// The wait before send `attempt + 1` after `failure` ended send `attempt` (1-based); nil:
    /// drop the batch. A `Retry-After` is honoured up to `maxDelay`; jitter (up to a tenth
    /// less) keeps replicas that failed together from retrying together.
    func delay(after attempt: Int, _ failure: Failure, jitter: Double = Double.random(in: 0...0.1)) -> Duration? {
        guard attempt < attempts, Self.isRetryable(failure) else { return nil }
        if case .answered(_, let retryAfter?) = failure, retryAfter >= 0 {
            return min(.seconds(retryAfter), maxDelay)
        }
        let doubled = baseDelay * (1 << min(attempt - 1, 20))
        return min(doubled, maxDelay) * (1 - jitter)
    }
}
