/// The request parameters and page body of one family of clients (config `dialect`, docs/API.md, "Dialects"),
/// so clients written for another server work unchanged in front of Folio.
///
/// A dialect is a pair of tables, each in its dialect's own file (`Dialect+DRF.swift`, …): how the request reads into
/// Folio's own `ListRequest` (paging names, page base, sort and filter syntax) and how the body is written around the
/// items' bytes. Everything else (snapshots, `metadataOnly`, `groupBy`, `beginsWith`, `q`, filters, `fields`, `Range`,
/// the headers of docs/API.md, "Headers on every page") is Folio's in every dialect. A new dialect is one new file and
/// one entry in `Dialect.all`.
public struct Dialect: Sendable {
    /// The config name (`dialect: drf`).
    public let name: String
    /// The ways a request names its page, tried in order; the first one whose parameters cover
    /// all that the request sent wins, and the first of all serves a request that sends none.
    let pagingModes: @Sendable (_ names: ParameterNames, _ pageBase: Int) -> [PagingMode]
    /// The sort parameter and its syntax.
    let sort: SortReading
    /// A parameter carrying several filters at once (react-admin's `filter={…}`), if any.
    let filter: FilterReading?
    /// Key suffixes read as comparison filters on filterable fields (json-server's `price_gte`).
    let comparisonSuffixes: [(suffix: String, comparison: ListRequest.Comparison)]
    /// The `Content-Type` of the dialect's page bodies.
    public let contentType: String
    /// Whether a `200` page carries `Content-Range: <itemsKey> first-last/total` (react-admin's
    /// `ra-data-simple-rest` reads the total there).
    public let contentRangeOnPages: Bool
    /// Writes a page body (items copied as bytes).
    let page: @Sendable (DialectPage) -> [UInt8]
    /// Writes the `metadataOnly` body.
    let metadata: @Sendable (DialectPage) -> [UInt8]
    /// The dialect's own spelling of Folio's filters, `fields` and `q` (JSON:API's `filter[price][gte]=5`, OData's
    /// `$select`): a parameter into the Folio parameters (key and value) it stands for, none of them when it names
    /// nothing on this route; nil for a parameter the dialect does not spell. Malformed ones are 400.
    var aliases: (@Sendable (QueryParameter, PagingOptions) throws(FolioError) -> [DialectAlias]?)? = nil
    /// Whether the body names each item by its id at `idField` (`jsonapi`, `strapi`, `stripe`): a list whose items
    /// are not all objects with a string or number there is answered `items-without-id` (docs/API.md, "Errors").
    public var needsIDs = false
    /// Headers on every page of the dialect (OData's `OData-Version: 4.0`).
    public var headers: [(name: String, value: String)] = []

    /// Every dialect `dialect:` accepts, in the order docs/CONFIG.md lists them.
    public static let all: [Dialect] = [
        .folio, .drf, .hal, .jsonServer, .simpleRest, .jsonAPI, .odata, .laravel, .strapi, .stripe,
    ]

    /// The dialect with that config name, nil for an unknown one.
    public static func named(_ name: String) -> Dialect? {
        all.first { $0.name == name }
    }

    /// The query parameter names this dialect reads on a route with renames `names`, which a
    /// `groupable`, `filterable` or `forwardQuery` name may not take (docs/CONFIG.md, "Grammar and validation").
    public func parameterNames(_ names: ParameterNames) -> [String] {
        var result: [String] = []
        for name in pagingModes(names, 0).flatMap(\.names) + [sort.key, sort.orderKey, filter?.key].compactMap({ $0 })
        where !result.contains(name) {
            result.append(name)
        }
        return result
    }

    /// The body for `page`: the items, or the metadata alone with `metadataOnly`.
    public func body(_ page: DialectPage) -> [UInt8] {
        page.metadataOnly ? metadata(page) : self.page(page)
    }
}

extension Dialect: Hashable {
    public static func == (lhs: Dialect, rhs: Dialect) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// What a dialect's own spelling of a parameter stands for among Folio's (`Dialect.aliases`).
enum DialectAlias: Sendable, Equatable {
    /// `FIELD=v` (`.equal`) or `FIELD[op]=v`; ignored on a field that is not filterable, as `?FIELD=v` is.
    case filter(field: String, comparison: ListRequest.Comparison, value: String)
    /// `fields=a,b`.
    case fields(String)
    /// `q=text`.
    case search(String)
    /// More sort keys in the dialect's sort syntax, after those of its sort parameter (Strapi's `sort[0]=a:desc`).
    case sort(String)
    /// `fields=a,b` given piecewise (Strapi's `fields[0]=a&fields[1]=b`): the names add up.
    case moreFields(String)
    /// Leave the total out of the body (Strapi's `pagination[withCount]=false`).
    case omitTotal
    /// Put the total into a body that leaves it out unasked (OData's `$count=true`).
    case withTotal
    /// `since=TOKEN`: the view's changes since that snapshot (OData's `$deltatoken`). Not kept in links.
    case since(String)
}

/// One way of naming a page in the query, e.g. DRF's `page` with `page_size`.
struct PagingMode: Sendable {
    enum Position: Sendable {
        case offset(String)
        case page(String, base: Int)
        /// End exclusive; the size is `end − start`.
        case startEnd(start: String, end: String)
        /// A JSON array `[first,last]`, both included.
        case range(String)
        /// An item's id: the page after it, or the one before it (Stripe's `starting_after`, `ending_before`).
        case cursor(after: String, before: String)
    }

    /// The page size parameter, if the position does not fix the size itself.
    let size: String?
    let position: Position

    var names: [String] {
        let own: [String] =
            switch position {
            case .offset(let name), .page(let name, _), .range(let name): [name]
            case .startEnd(let start, let end), .cursor(let start, let end): [start, end]
            }
        return (size.map { [$0] } ?? []) + own
    }

    /// How links of a request in this mode name their pages.
    var spelling: PageSpelling {
        switch position {
        case .offset(let name): .offset(size: size ?? "", offset: name)
        case .page(let name, let base): .page(size: size ?? "", page: name, base: base)
        case .startEnd(let start, let end): .startEnd(start: start, end: end)
        case .range(let name): .range(name)
        case .cursor(let after, _): .cursor(size: size ?? "", after: after)
        }
    }

    /// A dialect's own name for a paging role, unless the route renames that role (`params`
    /// renames apply on top of the dialect's names, docs/API.md, "Dialects").
    static func name(_ own: String, renamed configured: String, folioDefault: String) -> String {
        configured == folioDefault ? own : configured
    }
}

/// How a dialect spells the order: `key` (and `orderKey`) read into Folio's `sort` text
/// (`category,-price`), whose fields then obey the route's permissions (docs/API.md, "Requests").
struct SortReading: Sendable {
    let key: String
    /// Whether `key` may repeat, one sort key per value (Spring's `sort=a&sort=b,desc`).
    let repeats: Bool
    /// A separate parameter holding the directions (json-server's `_order`).
    let orderKey: String?
    /// The values of `key` as sent (empty when absent) and `orderKey`'s value into Folio's sort
    /// text; nil when the request asks for no order. Malformed values are 400.
    let read: @Sendable (_ values: [String], _ order: String?) throws(FolioError) -> String?

    /// Folio's own `sort=category,-price`.
    static let folio = SortReading(key: "sort", repeats: false, orderKey: nil) { values, _ in values.first }
}

/// A parameter holding several filters and perhaps the search (`filter={"category":"tools","q":"oak"}`).
struct FilterReading: Sendable {
    let key: String
    /// The value into filters on the route's filterable fields (others are ignored, as a
    /// `?FIELD=v` on a field that is not filterable is) and the search text.
    let read:
        @Sendable (_ value: String, _ filterable: [String]) throws(FolioError) -> (
            filters: [ListRequest.Filter], q: String?
        )
}

/// What a dialect's body writer gets: the page's view and paging, its links (in the request's
/// spelling) and how items are cut.
public struct DialectPage: Sendable {
    public let view: ListView
    public let paging: Paging
    public let links: LinkBuilder
    public let itemsKey: String
    public let fields: SparseFields?
    public let metadataOnly: Bool
    /// The route's `envelope` (only Folio's own dialect has a choice of body).
    public let envelope: Bool
    /// The route's `idField`, which names items in `jsonapi`, `strapi` and `stripe` (docs/API.md, "More dialects").
    public let idField: FieldPath?
    /// JSON:API's resource type: the route's `type`, or its name.
    public let resourceType: String
    /// Whether the body leaves the total out (`strapi`'s `pagination[withCount]=false`).
    public var omitTotal: Bool
    /// Whether the body carries a total it leaves out unasked (`odata`'s `$count=true`).
    public var withTotal: Bool
    /// OData's `@odata.context`: `BASE/$metadata#ROUTE` (`server.publicBaseURL`, the route's name).
    public var metadataContext: String
    /// For `stripe`'s `ending_before`: the view position of the item the page ends before (the page is the
    /// `pageSize` items up to it, fewer near the start); nil otherwise.
    public var endingBefore: Int?

    public init(
        view: ListView, paging: Paging, links: LinkBuilder, itemsKey: String, fields: SparseFields?,
        metadataOnly: Bool, envelope: Bool, idField: FieldPath? = nil, resourceType: String = "",
        endingBefore: Int? = nil, omitTotal: Bool = false, withTotal: Bool = false, metadataContext: String = ""
    ) {
        self.withTotal = withTotal
        self.metadataContext = metadataContext
        self.endingBefore = endingBefore
        self.omitTotal = omitTotal
        self.idField = idField
        self.resourceType = resourceType
        self.view = view
        self.paging = paging
        self.links = links
        self.itemsKey = itemsKey
        self.fields = fields
        self.metadataOnly = metadataOnly
        self.envelope = envelope
    }

    /// The page's items as `[item,item]`, bytes copied.
    var items: PageItems {
        PageItems(view: view, positions: paging.items.clamped(to: 0..<view.count), fields: fields)
    }
}
