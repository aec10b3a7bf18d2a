import FolioEngine

/// One snapshot as Redis holds it for every replica: the list's elements and what its freshness
/// and validators were when the filler stored it. Orders, sections and rendered pages are not
/// shared; a replica rebuilds them from the elements.
public struct StoredList: Sendable {
    public var list: ItemList
    public var token: String
    /// The route's sort, as written: part of what the token hashes.
    public var sort: [String]
    /// When the filler stored it, wall clock (replicas share no monotonic clock).
    public var storedAtMilliseconds: Int64
    /// How long it is fresh from `storedAtMilliseconds`.
    public var lifetimeMilliseconds: Int64
    public var etag: String?
    public var lastModified: String?
    public var mustRevalidate: Bool
    /// The upstream's `Age` when the filler received it (0 from a replica that did not record it).
    public var initialAgeMilliseconds: Int64

    public init(
        list: ItemList, token: String, sort: [String], storedAtMilliseconds: Int64, lifetimeMilliseconds: Int64,
        etag: String? = nil, lastModified: String? = nil, mustRevalidate: Bool = false,
        initialAgeMilliseconds: Int64 = 0
    ) {
        self.initialAgeMilliseconds = initialAgeMilliseconds
        self.list = list
        self.token = token
        self.sort = sort
        self.storedAtMilliseconds = storedAtMilliseconds
        self.lifetimeMilliseconds = lifetimeMilliseconds
        self.etag = etag
        self.lastModified = lastModified
        self.mustRevalidate = mustRevalidate
    }
}

/// A stored list's freshness and validators alone (its metadata without the elements).
public struct StoredFreshness: Sendable, Equatable {
    public var storedAtMilliseconds: Int64
    public var lifetimeMilliseconds: Int64
    public var etag: String?
    public var lastModified: String?
    public var mustRevalidate: Bool
    public var initialAgeMilliseconds: Int64 = 0
}

extension StoredList {
    public var freshness: StoredFreshness {
        StoredFreshness(
            storedAtMilliseconds: storedAtMilliseconds, lifetimeMilliseconds: lifetimeMilliseconds, etag: etag,
            lastModified: lastModified, mustRevalidate: mustRevalidate, initialAgeMilliseconds: initialAgeMilliseconds)
    }
}
