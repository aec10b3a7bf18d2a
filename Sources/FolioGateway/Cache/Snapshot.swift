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
    /// Sort orders, sections and filters of this list, computed once each and shared by
    /// every request on the snapshot.
    public let indexes: SnapshotIndexes

    init(
        list: ItemList, token: String, storedAt: ContinuousClock.Instant, freshUntil: ContinuousClock.Instant,
        etag: String? = nil, lastModified: String? = nil, mustRevalidate: Bool = false, indexes: SnapshotIndexes
    ) {
        self.indexes = indexes
        self.list = list
        self.token = token
        self.storedAt = storedAt
        self.freshUntil = freshUntil
        self.etag = etag
        self.lastModified = lastModified
        self.mustRevalidate = mustRevalidate
        self.accountedBytes = list.retainedBytes + indexes.retainedBytes
    }

    /// The same list with new freshness (a 304, or a refill that minted the same token).
    func renewed(at now: ContinuousClock.Instant, freshness: Freshness) -> Snapshot {
        Snapshot(
            list: list, token: token, storedAt: now, freshUntil: now + freshness.lifetime,
            etag: freshness.etag ?? etag, lastModified: freshness.lastModified ?? lastModified,
            mustRevalidate: freshness.mustRevalidate, indexes: indexes)
    }

    /// Bytes this snapshot keeps alive now (orders built later add to it).
    public var retainedBytes: Int { list.retainedBytes + indexes.retainedBytes }
    /// What the cache counted for it when it was stored: fixed, so adding and removing it
    /// from the cache's total always balance.
    let accountedBytes: Int

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
