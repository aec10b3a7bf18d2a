import Prometheus

/// The metric handles of one route, created once per loaded config so a request only indexes
/// arrays: no registry lock, no label lookup on the hot path.
final class RouteMetrics: Sendable {
    /// The `route` label of requests that matched no configured route.
    static let unroutedName = "none"

    /// By `StatusClass.index`.
    private let requests: [Counter]
    private let requestDuration: DurationHistogram
    /// By `UpstreamOutcome.rawValue`.
    private let upstreamFetches: [Counter]
    private let upstreamDuration: DurationHistogram
    /// By `CacheResult.rawValue`.
    private let cacheLookups: [Counter]
    /// The same counts, readable, for the admin page; the same object after a reload.
    let activity: RouteActivity

    init(route: String, registry: PrometheusCollectorRegistry, activity: RouteActivity = RouteActivity()) {
        self.activity = activity
        let label = ("route", route)
        requests = StatusClass.labels.map { status in
            registry.makeCounter(
                descriptor: GatewayMetrics.requests.descriptor, labels: [label, ("status_class", status)])
        }
        requestDuration = registry.makeDurationHistogram(
            descriptor: GatewayMetrics.requestDuration.descriptor, labels: [label],
            buckets: GatewayMetrics.requestBuckets)
        upstreamFetches = UpstreamOutcome.allCases.map { outcome in
            registry.makeCounter(
                descriptor: GatewayMetrics.upstreamFetches.descriptor, labels: [label, ("outcome", outcome.label)])
        }
        upstreamDuration = registry.makeDurationHistogram(
            descriptor: GatewayMetrics.upstreamFetchDuration.descriptor, labels: [label],
            buckets: GatewayMetrics.upstreamBuckets)
        cacheLookups = CacheResult.allCases.map { result in
            registry.makeCounter(
                descriptor: GatewayMetrics.cacheLookups.descriptor, labels: [label, ("result", result.label)])
        }
    }

    func request(status: Int, duration: Duration) {
        requests[StatusClass.index(status)].increment()
        activity.answered(status: status)
        requestDuration.record(duration)
    }

    func upstream(_ outcome: UpstreamOutcome, duration: Duration) {
        upstreamFetches[outcome.rawValue].increment()
        upstreamDuration.record(duration)
    }

    func cacheLookup(_ result: CacheResult) {
        cacheLookups[result.rawValue].increment()
        activity.lookup(result)
    }
}

/// `1xx` … `5xx`: the bounded status label (codes outside 100...599 fall into the nearest).
enum StatusClass {
    static let labels = ["1xx", "2xx", "3xx", "4xx", "5xx"]

    static func index(_ status: Int) -> Int {
        min(max(status / 100, 1), 5) - 1
    }
}

/// How one upstream request ended: the upstream's status class, or no answer at all.
enum UpstreamOutcome: Int, CaseIterable, Sendable {
    case informational, success, redirection, clientError, serverError, timeout, error

    init(status: Int) {
        self = Self(rawValue: StatusClass.index(status)) ?? .error
    }

    /// A failure without an upstream answer: timeouts are 504 (docs/API.md, "Errors").
    init(failureStatus: Int) {
        self = failureStatus == 504 ? .timeout : .error
    }

    var label: String {
        switch self {
        case .informational, .success, .redirection, .clientError, .serverError: StatusClass.labels[rawValue]
        case .timeout: "timeout"
        case .error: "error"
        }
    }
}
