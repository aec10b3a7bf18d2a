/// One answer of a list route, whatever the dialect: the items, the list's total and how to go on.
public struct Page<Element: Sendable>: Sendable {
    public var items: [Element]
    /// The size of the whole (filtered) list in the snapshot the page was cut from.
    public var totalCount: Int
    /// The snapshot token (docs/API.md, "Snapshots"): every page of one list view is asked from it.
    public var snapshot: String?
    /// The URI of the next page (relative or absolute as Folio wrote it); nil on the last page.
    public var next: String?
    /// The URI of the first page of this view (from `Link rel="first"` when sent).
    public var first: String?

    /// docs/API.md, "The page": "hasMore is true exactly when next is not null".
    public var hasMore: Bool { next != nil }
}

/// A coding key for members whose names are only known at run time (`itemsKey`).
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A HAL link object, `{"href": "…"}`.
struct LinkText: Decodable {
    var href: String
}
