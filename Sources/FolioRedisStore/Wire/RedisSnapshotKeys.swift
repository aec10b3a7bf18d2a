import Crypto
import FolioEngine

/// The names of Folio's keys in Redis, laid out for a Redis Cluster (docs/SHARED-STORE.md, "Key
/// layout"): every command, transaction and script touches keys of one hash tag only. A
/// snapshot is kept per cache key: its keys are named by the cache key's hash and the token, and
/// share the hash tag `{KEYHASH:TOKEN}`, so its parts live on one shard and different snapshots
/// spread over all. A route's keys (its newest pointers, their set, its drop generation) share
/// the tag `{ROUTEHASH}`: the scripts that move pointers touch only those. A token is never looked up for another cache key, so a
/// `?snapshot=` link on one route, path or `perCredential` partition cannot read the list of
/// another that happens to have the same token, and each key's freshness is its own. A cache
/// key appears only as a hash, so no raw query or header value, and no credential, is ever
/// part of a key name.
public struct RedisSnapshotKeys: Sendable {
    /// `cache.redis.keyPrefix`, e.g. `folio:`.
    public let prefix: String

    public init(prefix: String) {
        self.prefix = prefix
    }

    /// The metadata (JSON) of the snapshot with `token` kept for the cache key hashed as
    /// `keyHash` (`hash(_:)`), written after all its parts.
    public func meta(_ keyHash: String, token: String) -> String { "\(snapshot(keyHash, token)):meta" }

    /// Part `index` of the snapshot's elements (a JSON array, cut into parts of a few MiB).
    public func part(_ keyHash: String, token: String, index: Int) -> String {
        "\(snapshot(keyHash, token)):part:\(index)"
    }

    /// When the snapshot was superseded (wall-clock milliseconds), while it is retained.
    public func superseded(_ keyHash: String, token: String) -> String { "\(snapshot(keyHash, token)):superseded" }

    private func snapshot(_ keyHash: String, _ token: String) -> String { "\(prefix)snapshot:{\(keyHash):\(token)}" }

    /// The newest token of a cache key, written last, under its route's tag.
    public func newest(_ key: CacheKey) -> String { newest(route: key.route, keyHash: Self.hash(key)) }

    /// The newest token of `route`'s cache key hashed as `keyHash`.
    public func newest(route: String, keyHash: String) -> String { "\(self.route(route)):newest:\(keyHash)" }

    /// The cache key hash in the name of one of `route`'s `newest` keys.
    public func keyHash(ofNewest name: String, route: String) -> String? {
        let head = "\(self.route(route)):newest:"
        return name.hasPrefix(head) ? String(name.dropFirst(head.count)) : nil
    }

    /// The start of every key of `route`: its hash tag.
    private func route(_ route: String) -> String { "\(prefix)route:{\(Self.hash(text: route))}" }

    /// The fill lock of a cache key: held by the one replica fetching it from the upstream.
    public func lock(_ key: CacheKey) -> String { "\(prefix)lock:\(Self.hash(key))" }

    /// Why the last fill of a cache key failed, for the replicas that waited for it.
    public func failure(_ key: CacheKey) -> String { "\(prefix)failed:\(Self.hash(key))" }

    /// That the last fill of a cache key got an answer that may not be shared (its own key, so
    /// that replicas of an earlier version, which do not read it, keep taking the lock in turn).
    public func unshared(_ key: CacheKey) -> String { "\(prefix)unshared:\(Self.hash(key))" }

    /// The live `newest` keys of one route, scored by when they expire (a sorted set), so a purge
    /// finds them all and nothing else.
    public func routeKeys(_ route: String) -> String { "\(self.route(route)):live" }

    /// A set of a route's `newest` keys taken by one drop, which empties it in batches.
    public func routeDrain(_ route: String, drop: String) -> String {
        "\(self.route(route)):drain:\(drop)"
    }

    /// A route's shared drop generation: every drop increments it, and a fill's write points
    /// the newest key at its list only if it is still what it was when the fill began.
    public func dropGeneration(_ route: String) -> String { "\(self.route(route)):drops" }

    /// The pub/sub channel on which replicas tell each other of stored, failed and dropped lists.
    public var events: String { "\(prefix)events" }

    /// A cache key as 32 hex digits of SHA-256 over its fields (length-prefixed, so no two
    /// keys can run together).
    public static func hash(_ key: CacheKey) -> String {
        FieldDigest.hex(
            of: [key.route, key.upstreamURL, key.partition ?? "\u{0}", key.variant] + key.varyValues, bytes: 16)
    }

    /// Any text (a route name) as 32 hex digits of its SHA-256.
    public static func hash(text: String) -> String {
        FieldDigest.hex(SHA256.hash(data: Array(text.utf8)), bytes: 16)
    }
}
