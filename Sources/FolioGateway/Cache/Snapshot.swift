import FolioEngine

/// One fill of a cache key: the indexed list, its token, its freshness and validators.
///
/// Immutable and shared by reference between the cache and every request slicing it, so a
/// superseded snapshot stays alive exactly as long as someone still pages through it.
public final class Snapshot: Sendable {
    public let list: ItemList
    public let token: String
    /// When the list was received or last revalidated (for `Age`).
    public let storedAt: ContinuousClock.Instant
    /// Until when the list is fresh.
    public let freshUntil: ContinuousClock.Instant
    /// Validators for a conditional refresh (nil for crawled lists, which are refetched).
    let etag: String?
    let lastModified: String?
    /// `must-revalidate`: never served stale.
    let mustRevalidate: Bool

    init(
        list: ItemList, token: String, storedAt: ContinuousClock.Instant, freshUntil: ContinuousClock.Instant,
        etag: String? = nil, lastModified: String? = nil, mustRevalidate: Bool = false
    ) {
        self.list = list
        self.token = token
        self.storedAt = storedAt
        self.freshUntil = freshUntil
        self.etag = etag
        self.lastModified = lastModified
        self.mustRevalidate = mustRevalidate
    }

    /// The same list with new freshness (a 304, or a refill that minted the same token).
    func renewed(at now: ContinuousClock.Instant, freshness: Freshness) -> Snapshot {
        Snapshot(
            list: list, token: token, storedAt: now, freshUntil: now + freshness.lifetime,
            etag: freshness.etag ?? etag, lastModified: freshness.lastModified ?? lastModified,
            mustRevalidate: freshness.mustRevalidate)
    }

    /// Bytes this snapshot keeps alive.
    public var retainedBytes: Int { list.retainedBytes }

    /// Whole seconds of freshness left at `now` (negative once stale).
    func ttl(at now: ContinuousClock.Instant) -> Int64 {
        now < freshUntil ? (freshUntil - now).wholeSeconds : -(now - freshUntil).wholeSeconds
    }

    /// Whole seconds since the list was received (`Age`).
    func age(at now: ContinuousClock.Instant) -> Int {
        Int((now - storedAt).wholeSeconds)
    }
}

extension Duration {
    /// Whole seconds, rounded towards zero (for `Age`, `Cache-Status` ttl).
    var wholeSeconds: Int64 { components.seconds }
}
