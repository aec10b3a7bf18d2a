import Crypto
import FolioEngine

/// The names of Folio's keys in Redis. Every key of one snapshot shares the hash tag `{TOKEN}`
/// (one slot, should a cluster ever be used); a cache key appears only as a hash, so no raw
/// query or header value, and no credential, is ever part of a key name.
public struct RedisSnapshotKeys: Sendable {
    /// `cache.redis.keyPrefix`, e.g. `folio:`.
    public let prefix: String

    public init(prefix: String) {
        self.prefix = prefix
    }

    /// The snapshot's metadata (JSON), written after all its parts.
    public func meta(token: String) -> String { "\(prefix)snapshot:{\(token)}:meta" }

    /// Part `index` of the snapshot's elements (a JSON array, cut into parts of a few MiB).
    public func part(token: String, index: Int) -> String { "\(prefix)snapshot:{\(token)}:part:\(index)" }

    /// The newest token of a cache key, written last.
    public func newest(_ key: CacheKey) -> String { "\(prefix)newest:\(Self.hash(key))" }

    /// A cache key as 32 hex digits of SHA-256 over its fields (length-prefixed, so no two
    /// keys can run together).
    public static func hash(_ key: CacheKey) -> String {
        var hasher = SHA256()
        for field in [key.route, key.upstreamURL, key.partition ?? "\u{0}"] + key.varyValues {
            hasher.update(data: Array("\(field.utf8.count):".utf8) + Array(field.utf8))
        }
        return hasher.finalize().prefix(16).map { String(format: "%02x", $0) }.joined()
    }
}
