import FolioEngine

/// One fill of a cache key: the indexed list, its token and when it stops being fresh.
///
/// Immutable and shared by reference between the cache and every request slicing it, so a
/// superseded snapshot stays alive exactly as long as someone still pages through it.
public final class Snapshot: Sendable {
    public let list: ItemList
    public let token: String
    /// When the list was received from the upstream (for `Age`).
    public let storedAt: ContinuousClock.Instant
    /// Until when the list is fresh.
    public let freshUntil: ContinuousClock.Instant

    public init(list: ItemList, token: String, storedAt: ContinuousClock.Instant, freshUntil: ContinuousClock.Instant) {
        self.list = list
        self.token = token
        self.storedAt = storedAt
        self.freshUntil = freshUntil
    }

    /// The same list with a new freshness lifetime (a refill that minted the same token).
    func renewed(storedAt: ContinuousClock.Instant, freshUntil: ContinuousClock.Instant) -> Snapshot {
        Snapshot(list: list, token: token, storedAt: storedAt, freshUntil: freshUntil)
    }

    /// Bytes this snapshot keeps alive.
    public var retainedBytes: Int { list.retainedBytes }
}

extension Duration {
    /// Whole seconds, rounded towards zero (for `Age`, `Cache-Status` ttl).
    var wholeSeconds: Int64 { components.seconds }
}
