/// One fill of a cache key: the indexed list, its token, its freshness and validators.
///
/// Immutable and shared by reference between the store and every request slicing it, so a
/// superseded snapshot stays alive exactly as long as someone still pages through it.
public final class Snapshot: Sendable {
    public let list: ItemList
    public let token: String
    /// When the list was received or last revalidated.
    public let storedAt: ContinuousClock.Instant
    /// How old the upstream said the list was when it arrived (its `Age`), added to the time
    /// since `storedAt` in Folio's own `Age` (RFC 9111 4.2.3).
    public let initialAge: Duration
    /// Until when the list is fresh.
    public let freshUntil: ContinuousClock.Instant
    /// Validators for a conditional refresh (nil for crawled lists, which are refetched).
    public let etag: String?
    public let lastModified: String?
    /// `must-revalidate`: never served stale.
    public let mustRevalidate: Bool
    /// Sort orders, sections and filters of this list, computed once each and shared by
    /// every request on the snapshot.
    public let indexes: SnapshotIndexes
    /// Compressed answers rendered from this list, kept for reuse (bounded, least recently
    /// used first).
    public let rendered: RenderedPages

    public init(
        list: ItemList, token: String, storedAt: ContinuousClock.Instant, freshUntil: ContinuousClock.Instant,
        etag: String? = nil, lastModified: String? = nil, mustRevalidate: Bool = false, initialAge: Duration = .zero,
        indexes: SnapshotIndexes, rendered: RenderedPages? = nil
    ) {
        self.initialAge = initialAge
        self.indexes = indexes
        self.rendered = rendered ?? RenderedPages(limit: Self.renderedLimit(list))
        self.list = list
        self.token = token
        self.storedAt = storedAt
        self.freshUntil = freshUntil
        self.etag = etag
        self.lastModified = lastModified
        self.mustRevalidate = mustRevalidate
    }

    /// The same list and indexes with new freshness and validators (a 304, or a refill that
    /// minted the same token): the memory is shared, not copied.
    public func renewed(
        storedAt: ContinuousClock.Instant, freshUntil: ContinuousClock.Instant, etag: String?, lastModified: String?,
        mustRevalidate: Bool, initialAge: Duration = .zero
    ) -> Snapshot {
        Snapshot(
            list: list, token: token, storedAt: storedAt, freshUntil: freshUntil, etag: etag ?? self.etag,
            lastModified: lastModified ?? self.lastModified, mustRevalidate: mustRevalidate, initialAge: initialAge,
            indexes: indexes, rendered: rendered)
    }

    /// Rendered answers a snapshot keeps: as many bytes as its list (compressed pages are a
    /// fraction of the items they hold), at least 256 KiB so small lists keep their pages.
    static func renderedLimit(_ list: ItemList) -> Int {
        max(list.retainedBytes, 256 << 10)
    }

    /// Bytes this snapshot keeps alive now: the list, every order, section index and filter
    /// built on it so far, and its kept compressed answers (so it grows as requests ask for
    /// new orders and pages).
    public var retainedBytes: Int { list.retainedBytes + indexes.retainedBytes + rendered.retainedBytes }

    /// Drops what requests built on this list (orders but the prepared ones, filtered views,
    /// kept answers) when the store is over its bound; returns the bytes freed.
    public func shed() -> Int {
        indexes.shed() + rendered.removeAll()
    }

    /// The `Cache-Status` ttl at `now`: whole seconds of freshness left, rounded down (≥ 0),
    /// while fresh; once stale, minus the seconds past freshness rounded up (≤ −1), so a stale
    /// answer never reads as a fresh one (docs/API.md, Cache-Status).
    public func ttl(at now: ContinuousClock.Instant) -> Int64 {
        now < freshUntil ? (freshUntil - now).wholeSeconds : -(now - freshUntil).staleSeconds
    }

    /// Whether the list may be answered as fresh at `now` (a zero freshness lifetime never is).
    public func isFresh(at now: ContinuousClock.Instant) -> Bool { now < freshUntil }

    /// Whole seconds since the list was received, plus the upstream's own `Age` then (`Age`).
    public func age(at now: ContinuousClock.Instant) -> Int {
        Int((now - storedAt + initialAge).wholeSeconds)
    }
}

extension Duration {
    /// Whole seconds, rounded towards zero (for `Age`, a fresh `Cache-Status` ttl).
    public var wholeSeconds: Int64 { components.seconds }

    /// How stale an answer is, for a negative `Cache-Status` ttl: whole seconds rounded up,
    /// and at least 1 (stale by a millisecond reads `ttl=-1`, never `ttl=0`).
    public var staleSeconds: Int64 {
        let (seconds, attoseconds) = components
        return Swift.max(1, seconds + (attoseconds > 0 ? 1 : 0))
    }
}
