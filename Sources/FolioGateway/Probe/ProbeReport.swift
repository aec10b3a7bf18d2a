/// What `folio probe` found for one route: what a fill would see and whether it would work.
public struct ProbeReport: Sendable, Encodable, Equatable {
    public var route: String
    /// The first URL requested (placeholders filled, no forwarded query).
    public var url: String
    /// Whether a fill would succeed and give a list.
    public var ok: Bool
    /// The first page's status (nil when no answer came).
    public var status: Int?
    /// Items in the list (nil when there is none).
    public var items: Int?
    /// Body bytes received over every page, after decoding.
    public var bytes: Int
    /// Wall time of the whole fill.
    public var milliseconds: Double
    /// One entry per upstream page fetched (one for an unpaginated route).
    public var pages: [Page]
    /// How long Folio would keep the list fresh, and why.
    public var freshness: FreshnessReport?
    public var etag: String?
    public var lastModified: String?
    /// Why a fill would fail (nil when `ok`).
    public var problem: Problem?

    public struct Page: Sendable, Encodable, Equatable {
        public var url: String
        public var status: Int
        /// Nil when the body failed.
        public var bytes: Int?
        public var milliseconds: Double
        /// The page's `Cache-Control` / `Expires` as received.
        public var cacheControl: String?
        public var expires: String?
    }

    public struct FreshnessReport: Sendable, Encodable, Equatable {
        /// Whether Folio may store and share the list.
        public var cacheable: Bool
        /// Seconds the list stays fresh (0: every use goes upstream first).
        public var seconds: Int
        public var mustRevalidate: Bool
        /// Where the figure comes from, in words.
        public var why: String
    }

    public struct Problem: Sendable, Encodable, Equatable {
        /// The problem type a client would get (`upstream-status` for a passed-through error).
        public var code: String
        public var status: Int
        public var detail: String
    }
}
