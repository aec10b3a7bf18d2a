/// Writes the URLs of other pages of the same list (docs/API.md, "The page"): the client's kept
/// parameters as sent, then the paging parameters in the client's style, then the snapshot token.
public struct LinkBuilder: Sendable {
    /// `base?kept&…&`: everything before the paging parameters.
    private let prefix: String
    /// How the paging parameters are written (Folio's names, or a dialect's, docs/API.md, "Dialects").
    public let spelling: PageSpelling
    public let pageSize: Int
    /// The snapshot token the page was cut from (also written into the envelope).
    public let snapshot: String
    private let snapshotSuffix: String
    /// The id text of the view's item at a position, for links spelled by cursor (`stripe`): set by whoever holds
    /// the view.
    public var cursorID: (@Sendable (Int) -> String?)?

    /// `base` is a path (`/objects`) or an absolute URL without a query; `kept` is
    /// `ListRequest.kept`.
    public init(base: String, kept: [QueryParameter], spelling: PageSpelling, pageSize: Int, snapshot: String) {
        var prefix = base
        prefix += "?"
        for parameter in kept {
            prefix += URIText.escapingInvalid(parameter.raw)
            prefix += "&"
        }
        self.prefix = prefix
        self.spelling = spelling
        self.pageSize = pageSize
        self.snapshot = snapshot
        self.snapshotSuffix = "&snapshot=" + URIText.escapingComponent(snapshot)
    }

    /// Folio's own spelling: `names` the route's renames, `style` the one the client used.
    public init(
        base: String, kept: [QueryParameter], names: ParameterNames, style: ListRequest.Style,
        pageSize: Int, pageBase: Int, snapshot: String
    ) {
        self.init(
            base: base, kept: kept, spelling: .folio(names: names, style: style, pageBase: pageBase),
            pageSize: pageSize, snapshot: snapshot)
    }

    /// The links of the page `request` asked for, spelled as it asked (its dialect's names).
    public init(base: String, request: ListRequest, options: PagingOptions, snapshot: String) {
        self.init(
            base: base, kept: request.kept,
            spelling: request.spelling
                ?? .folio(names: options.names, style: request.style, pageBase: options.pageBase),
            pageSize: request.pageSize, snapshot: snapshot)
    }

    /// The list's own URL without a query: the `base` given, which holds no `?` (Laravel's `path`, docs/API.md,
    /// "Dialects").
    public var path: String {
        String(prefix.utf8.prefix { $0 != UInt8(ascii: "?") })!
    }

    /// The URL of the page starting at `offset`. In page style the offset is named by its page
    /// number, `offset / pageSize + pageBase` (page-style links only ever point at aligned offsets).
    ///
    /// Built with one allocation: a page answer writes five of these (four links and the ETag's).
    public func url(offset: Int) -> String {
        var url = String()
        url.reserveCapacity(prefix.utf8.count + 48 + snapshotSuffix.utf8.count)
        url += prefix
        spelling.write(offset: offset, pageSize: pageSize, to: &url)
        if case .cursor(_, let after) = spelling, offset > 0, let id = cursorID?(offset - 1) {
            url += "&"
            url += URIText.escapingComponent(after)
            url += "="
            url += URIText.escapingComponent(id)
        }
        url += snapshotSuffix
        return url
    }

    /// OData's delta link (docs/API.md, "OData deltas"): the list's URL with the request's kept parameters (no
    /// paging parameter, no `snapshot`), then `$deltatoken=TOKEN`.
    public func deltaURL(token: String) -> String {
        prefix + URIText.escapingComponent("$deltatoken") + "=" + URIText.escapingComponent(token)
    }

    /// The four links of `paging` as URLs, nil where the rel is absent.
    public func urls(_ paging: Paging) -> (first: String?, previous: String?, next: String?, last: String?) {
        (paging.first.map(url), paging.previous.map(url), paging.next.map(url), paging.last.map(url))
    }

    /// RFC 8288: `<u>; rel="first", <u>; rel="prev", <u>; rel="next", <u>; rel="last"`, absent
    /// rels omitted.
    public func linkHeader(_ paging: Paging) -> String {
        linkHeader(urls(paging))
    }

    /// The `Link` header of URLs already built by `urls(_:)`.
    public func linkHeader(_ links: (first: String?, previous: String?, next: String?, last: String?)) -> String {
        var header = String()
        header.reserveCapacity(4 * (prefix.utf8.count + snapshotSuffix.utf8.count + 64))
        func add(_ url: String?, _ rel: String) {
            guard let url else { return }
            if !header.isEmpty { header += ", " }
            header += "<"
            header += url
            header += ">; rel=\""
            header += rel
            header += "\""
        }
        add(links.first, "first")
        add(links.previous, "prev")
        add(links.next, "next")
        add(links.last, "last")
        return header
    }
}
