/// What `GET /state` on the admin listener answers, and what the admin page shows
/// (docs/API.md, "Admin state"). Never a credential: upstreams by host and port only (no
/// userinfo, path or query), cache keys by a hash, no header values, no admin token.
struct AdminState: Encodable, Sendable {
    /// Wall-clock time of this answer, RFC 3339 UTC.
    var generatedAt: String
    /// What `/readyz` says.
    var ready: Bool
    /// `POST /purge` needs `Authorization: Bearer TOKEN` (`server.adminToken` is set).
    var purgeNeedsToken: Bool
    /// Fill tasks running now, every route (and replaced gateways) together.
    var fillsInFlight: Int
    var store: Store
    var routes: [Route]

    struct Store: Encodable, Sendable {
        /// `memory` or `redis`.
        var kind: String
        /// Snapshots and bytes held in this process (with `redis`, its local layer).
        var snapshots: Int
        var bytes: Int
        var maxBytes: Int
        var evictions: Int
        /// With `redis`: each server by `host:port` and whether it answers now.
        var nodes: [Node]
    }

    struct Node: Encodable, Sendable {
        var address: String
        var reachable: Bool
    }

    struct Route: Encodable, Sendable {
        var name: String
        var path: String
        var dialect: String
        /// The upstream's `host:port`.
        var upstreamHost: String
        var hits: Int
        var misses: Int
        var stale: Int
        var errors: Int
        var fillsInFlight: Int
        /// Watch streams of the route open now.
        var watchers: Int
        var lastFill: Fill?
        var snapshots: [Snapshot]
    }

    struct Fill: Encodable, Sendable {
        var at: String
        var durationMs: Double
        var bytes: Int?
        var items: Int?
        var outcome: String
    }

    struct Snapshot: Encodable, Sendable {
        /// The first 16 hex digits of the SHA-256 of the cache key.
        var keyHash: String
        var token: String
        var items: Int
        var bytes: Int
        var ageSeconds: Int
        /// The `Cache-Status` ttl now: seconds of freshness left, negative once stale.
        var ttlSeconds: Int64
        var fresh: Bool
        /// `current` (the key's newest list) or `retained` (superseded, answering pinned links).
        var state: String
    }
}
