import FolioEngine

/// What a replica needs to turn a route's stored list into a snapshot it serves: the route's
/// section key and order (built before the snapshot is shared, as a fill does), and how long
/// its superseded snapshots answer pinned links.
public struct RouteShape: Sendable {
    /// The keys this shape's lists are under (`CacheKey.variant`): a key of another variant
    /// belongs to a config a reload replaced.
    public var variant: String
    public var sectionKey: FieldPath?
    /// Built on every list, and written with it (its texts are part of the token).
    public var defaultSort: SortSpec
    public var retention: Duration
    /// What else is built on a list before it is served, as a fill does (the route's search
    /// columns, off the request path).
    public var prepare: @Sendable (SnapshotIndexes) -> Void

    public init(
        variant: String, sectionKey: FieldPath?, defaultSort: SortSpec, retention: Duration,
        prepare: @escaping @Sendable (SnapshotIndexes) -> Void = { _ in }
    ) {
        self.variant = variant
        self.sectionKey = sectionKey
        self.defaultSort = defaultSort
        self.retention = retention
        self.prepare = prepare
    }

    /// `stored` as this replica serves it, stored at `storedAt` on this replica's clock:
    /// indexed, with the route's order built.
    func snapshot(_ stored: StoredList, storedAt: ContinuousClock.Instant) -> Snapshot {
        let indexes = SnapshotIndexes(list: stored.list, sectionKey: sectionKey)
        indexes.prepare(defaultSort)
        prepare(indexes)
        return Snapshot(
            list: stored.list, token: stored.token, storedAt: storedAt,
            freshUntil: storedAt + .milliseconds(stored.lifetimeMilliseconds), etag: stored.etag,
            lastModified: stored.lastModified, mustRevalidate: stored.mustRevalidate,
            initialAge: .milliseconds(stored.initialAgeMilliseconds), indexes: indexes)
    }
}
