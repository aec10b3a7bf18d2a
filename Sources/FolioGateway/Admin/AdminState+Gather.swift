import Crypto
import FolioConfiguration
import FolioEngine
import FolioRedisStore
import Foundation

extension AdminState {
    /// The state of `gateway` now.
    static func gather(_ gateway: Gateway, ready: Bool) async -> AdminState {
        let cache = gateway.cache
        let statistics = await cache.statistics()
        let held = await cache.store.inventory()
        let now = cache.now()
        let configuration = gateway.configuration
        var nodes: [Node] = []
        if let shared = cache.store as? SharedSnapshotStore, let url = configuration.cache.redis.url {
            nodes = [
                Node(address: ListenAddress(host: url.host, port: url.port).description, reachable: shared.isReachable)
            ]
        }
        let store = Store(
            kind: configuration.cache.store == .redis ? "redis" : "memory", snapshots: statistics.snapshots,
            bytes: statistics.bytes, maxBytes: configuration.cache.processBound, evictions: statistics.evictions,
            nodes: nodes)
        let byRoute = Dictionary(grouping: held, by: \.key.route)
        let routes = gateway.routes.map { compiled in
            let config = compiled.config
            let activity = compiled.metrics.activity
            // Current lists first, then retained ones; newest first within each.
            let snapshots = (byRoute[config.name] ?? [])
                .sorted { a, b in
                    (a.supersededAt == nil) != (b.supersededAt == nil)
                        ? a.supersededAt == nil : a.snapshot.storedAt > b.snapshot.storedAt
                }
                .map { Snapshot($0, now: now) }
            let url = config.upstream.url
            return Route(
                name: config.name, path: config.path.text, dialect: config.paging.dialect.name,
                upstreamHost: ListenAddress(host: url.host, port: url.port).description,
                hits: activity.hits.load(ordering: .relaxed), misses: activity.misses.load(ordering: .relaxed),
                stale: activity.stale.load(ordering: .relaxed), errors: activity.errors.load(ordering: .relaxed),
                fillsInFlight: activity.fillsInFlight.load(ordering: .relaxed), watchers: activity.watchers,
                lastFill: activity.lastFill.map(Fill.init), snapshots: snapshots)
        }
        return AdminState(
            generatedAt: Self.timestamp(Date()), ready: ready, purgeNeedsToken: configuration.server.adminToken != nil,
            fillsInFlight: statistics.fillsInFlight, store: store, routes: routes)
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}

extension AdminState.Fill {
    init(_ fill: RouteActivity.Fill) {
        let (seconds, attoseconds) = fill.duration.components
        self.init(
            at: AdminState.timestamp(fill.at), durationMs: Double(seconds) * 1000 + Double(attoseconds) / 1e15,
            bytes: fill.bytes, items: fill.items, outcome: fill.outcome)
    }
}

extension AdminState.Snapshot {
    init(_ held: HeldSnapshot, now: ContinuousClock.Instant) {
        let snapshot = held.snapshot
        self.init(
            keyHash: Self.hash(held.key), token: snapshot.token, items: snapshot.list.count, bytes: held.bytes,
            ageSeconds: snapshot.age(at: now), ttlSeconds: snapshot.ttl(at: now), fresh: snapshot.isFresh(at: now),
            state: held.supersededAt == nil ? "current" : "retained")
    }

    /// Names a cache key without showing it (its URL may carry forwarded query values, its
    /// partition stands for credentials).
    static func hash(_ key: CacheKey) -> String {
        var text = [key.route, key.upstreamURL, key.partition ?? "-", key.variant].joined(separator: "\u{0}")
        for value in key.varyValues { text += "\u{0}" + value }
        return SHA256.hash(data: Array(text.utf8)).prefix(8).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
