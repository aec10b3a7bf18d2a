/// How a link names one page of a list in the query: the paging parameters a dialect writes
/// after the client's kept parameters (docs/API.md, "The page" and "Dialects").
public enum PageSpelling: Sendable, Hashable {
    /// `size=N&offset=X` (Folio's default style, DRF's `limit`/`offset`, json-server's
    /// `_limit`/`_start`).
    case offset(size: String, offset: String)
    /// `size=N&page=P`, `P = offset / N + base` (links in this style only point at aligned offsets).
    case page(size: String, page: String, base: Int)
    /// `start=X&end=X+N`, end exclusive (json-server's `_start`/`_end`).
    case startEnd(start: String, end: String)
    /// `name=[X,X+N-1]` as a percent-encoded JSON array, both ends included (react-admin's `range`).
    case range(String)
    /// `size=N&after=ID`, ID the id of the item before the page (none for the first page; Stripe's `limit` and
    /// `starting_after`): written by `LinkBuilder`, which knows the items' ids.
    case cursor(size: String, after: String)

    /// Appends the paging parameters of the page of `pageSize` items starting at `offset`.
    func write(offset: Int, pageSize: Int, to url: inout String) {
        switch self {
        case .offset(let size, let name):
            Self.append(size, pageSize, to: &url)
            url += "&"
            Self.append(name, offset, to: &url)
        case .page(let size, let name, let base):
            Self.append(size, pageSize, to: &url)
            url += "&"
            Self.append(name, offset / pageSize + base, to: &url)
        case .startEnd(let start, let end):
            Self.append(start, offset, to: &url)
            url += "&"
            Self.append(end, offset + pageSize, to: &url)
        case .range(let name):
            url += URIText.escapingComponent(name)
            url += "=%5B\(offset)%2C\(offset + pageSize - 1)%5D"
        case .cursor(let size, _):
            Self.append(size, pageSize, to: &url)
        }
    }

    private static func append(_ name: String, _ value: Int, to url: inout String) {
        url += URIText.escapingComponent(name)
        url += "="
        url += String(value)
    }

    /// Folio's own spelling for a route's renames and the style the client used.
    public static func folio(names: ParameterNames, style: ListRequest.Style, pageBase: Int) -> PageSpelling {
        switch style {
        case .offset: .offset(size: names.pageSize, offset: names.offset)
        case .page: .page(size: names.pageSize, page: names.page, base: pageBase)
        }
    }
}
