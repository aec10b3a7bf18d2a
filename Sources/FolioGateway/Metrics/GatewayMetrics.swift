import FolioEngine
import FolioRedisStore
import Prometheus
import Synchronization

/// The gateway's Prometheus metrics (docs/OPERATIONS.md, "Metrics"), registered in an injected registry
/// so two gateways (tests, a reload) can live in one process without a global bootstrap.
///
/// Handles are created once: per route in `RouteMetrics` (looked up by array index on the hot
/// path), process-wide ones here. The registry fatalErrors when one name is registered with
/// another help text, type, label set or bucket list, so every name is defined in this file only.
public final class GatewayMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    /// Snapshots removed to stay within `cache.maxBytes` (the memory bound's eviction hook,
    /// `MemorySnapshotStore.gatewayDefault`).
    let cacheEvictions: Counter
    /// Requests that waited on another request's fill (`Cache-Status: …; collapsed`).
    let coalescedWaiters: Counter
    /// Kept answers written on the event loop that read their request (`KeptAnswerHandler`).
    let answersAtOnce: Counter
    /// Set at scrape time from the serving gateway's cache.
    let cacheBytes: Gauge
    /// The bound in force (`cache.maxBytes`, after `auto` was resolved).
    let cacheMaxBytes: Gauge
    let snapshots: Gauge
    /// Fill tasks not ended, read at scrape time from the `FillLedger` a reload's gateways share,
    /// so fills still running on a replaced one count.
    let fillsInFlight: Gauge
    /// Metrics of requests that matched no route (`route="none"`).
    let unrouted: RouteMetrics
    /// By `Limit`: every breach of a configured limit, counted once where it happens (a fill
    /// shared by waiters counts once).
    private let limitBreaches: [Limit: Counter]
    /// By `StoreOperation`: failed calls to the shared store (`cache.store: redis`).
    private let storeErrors: [StoreOperation: Counter]
    /// By node and operation: the failed calls a Redis server is named for, made when first
    /// counted (a cluster's nodes are learnt as it runs).
    private let storeNodeErrors = Mutex<[String: Counter]>([:])
    /// Each route's counts for the admin page, kept across reloads.
    let activities = RouteActivityBook()

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        cacheEvictions = registry.makeCounter(descriptor: Self.cacheEvictions.descriptor)
        coalescedWaiters = registry.makeCounter(descriptor: Self.coalescedWaiters.descriptor)
        answersAtOnce = registry.makeCounter(descriptor: Self.answersAtOnce.descriptor)
        cacheBytes = registry.makeGauge(descriptor: Self.cacheBytes.descriptor)
        cacheMaxBytes = registry.makeGauge(descriptor: Self.cacheMaxBytes.descriptor)
        snapshots = registry.makeGauge(descriptor: Self.snapshots.descriptor)
        fillsInFlight = registry.makeGauge(descriptor: Self.fillsInFlight.descriptor)
        unrouted = RouteMetrics(route: RouteMetrics.unroutedName, registry: registry)
        var breaches: [Limit: Counter] = [:]
        for limit in Limit.all {
            breaches[limit] = registry.makeCounter(
                descriptor: Self.limitBreaches.descriptor, labels: [("limit", limit.key)])
        }
        limitBreaches = breaches
        var storeErrors: [StoreOperation: Counter] = [:]
        for operation in StoreOperation.allCases {
            storeErrors[operation] = registry.makeCounter(
                descriptor: Self.storeErrors.descriptor, labels: [("operation", operation.rawValue)])
        }
        self.storeErrors = storeErrors
    }

    /// Counts a failed call to the shared store, and under `node` when a server is named.
    public func storeFailed(_ operation: StoreOperation, node: String?) {
        storeErrors[operation]?.increment()
        guard let node else { return }
        let counter = storeNodeErrors.withLock { counters in
            let name = node + " " + operation.rawValue
            if let counter = counters[name] { return counter }
            let counter = registry.makeCounter(
                descriptor: Self.storeNodeErrors.descriptor,
                labels: [("node", node), ("operation", operation.rawValue)])
            counters[name] = counter
            return counter
        }
        counter.increment()
    }

    /// Counts a breach of `limit` (nil: the error breached none).
    func breached(_ limit: Limit?) {
        if let limit { limitBreaches[limit]?.increment() }
    }

    /// The handles of one configured route (the same series again after a reload).
    func route(_ name: String) -> RouteMetrics {
        RouteMetrics(route: name, registry: registry, activity: activities.activity(name))
    }

    /// Refreshes the scrape-time gauges from `cache`, then renders the registry.
    func exposition(cache: FillCoalescer, maxBytes: Int) async -> [UInt8] {
        let stats = await cache.statistics()
        cacheMaxBytes.set(to: Double(maxBytes))
        snapshots.set(to: Double(stats.snapshots))
        cacheBytes.set(to: Double(stats.bytes))
        fillsInFlight.set(to: Double(stats.fillsInFlight))
        return registry.emitToBuffer()
    }
}

extension GatewayMetrics {
    static let requests = descriptor("requests", unit: "total", help: "Client requests by route and status class.")
    static let requestDuration = descriptor(
        "request_duration", unit: "seconds", help: "Time from request head to response head, by route.")
    static let upstreamFetches = descriptor(
        "upstream_fetches", unit: "total", help: "Upstream requests (fills, forwards) by route and outcome.")
    static let upstreamFetchDuration = descriptor(
        "upstream_fetch_duration", unit: "seconds", help: "Duration of upstream requests including the body, by route.")
    static let cacheLookups = descriptor(
        "cache_lookups", unit: "total", help: "List requests by route and how the cache answered them.")
    static let cacheEvictions = descriptor(
        "cache_evictions", unit: "total", help: "Snapshots evicted to stay within cache.maxBytes.")
    static let coalescedWaiters = descriptor(
        "coalesced_waiters", unit: "total", help: "Requests that waited on another request's upstream fill.")
    static let answersAtOnce = descriptor(
        "answers_at_once", unit: "total",
        help: "Kept answers of fresh snapshots written on the event loop that read the request.")
    static let limitBreaches = descriptor(
        "limit_breaches", unit: "total", help: "Breaches of a configured limit, by its key under limits.")
    static let storeErrors = descriptor(
        "store_errors", unit: "total",
        help: "Failed calls to the shared snapshot store (cache.store: redis), by operation.")
    static let storeNodeErrors = descriptor(
        "store_node_errors", unit: "total",
        help: "Failed calls to the shared snapshot store by the Redis server that failed them, and operation.")
    static let cacheBytes = descriptor("cache", unit: "bytes", help: "Bytes held by all snapshots.")
    static let cacheMaxBytes = descriptor(
        "cache_max", unit: "bytes",
        help: "The cache bound in force (cache.maxBytes; auto: half the container's memory limit).")
    static let snapshots = descriptor("snapshots", unit: nil, help: "Snapshots held, current and retained.")
    static let fillsInFlight = descriptor("fills_in_flight", unit: nil, help: "Upstream fills running now.")
    static let traceExportBatches = descriptor(
        "trace_export_batches", unit: "total",
        help: "Span batches sent to tracing.otlpEndpoint (sent) or given up on (dropped).")
    static let traceExportRetries = descriptor(
        "trace_export_retries", unit: "total", help: "Span batches sent again after a retryable failure.")

    /// Request durations: a page from the cache takes well under a millisecond, a cold fill of a
    /// large list seconds.
    static let requestBuckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
        .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10), .seconds(30),
    ]
    /// Upstream durations: up to the default `upstreamTimeout` and beyond (crawls).
    static let upstreamBuckets: [Duration] = [
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
        .seconds(30), .seconds(60), .seconds(300),
    ]

    static func descriptor(_ name: String, unit: String?, help: String) -> MetricName {
        MetricName(name: name, unit: unit ?? "", help: help)
    }
}

/// One metric's name parts and help text (`MetricNameDescriptor` is not `Sendable`, so the
/// definitions are kept as this and turned into descriptors when registering).
struct MetricName: Sendable {
    var name: String
    var unit: String
    var help: String

    var descriptor: MetricNameDescriptor {
        MetricNameDescriptor(namespace: "folio", metricName: name, unitName: unit, helpText: help)
    }

    /// The exposed name, e.g. `folio_requests_total`.
    var fullName: String { descriptor.name }
}
