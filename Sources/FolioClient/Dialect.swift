import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The page shape a route speaks (docs/API.md, "Dialects"): which paging parameters a request carries and where
/// the items, the total and the links are in the answer. Only dialects that carry a total are
/// here, since the paged list needs its count up front.
public enum Dialect: String, Sendable, CaseIterable {
    /// Folio's own envelope (docs/API.md, "The page"): `pageSize`/`offset`, `{"paging": {…}, "<itemsKey>": […]}`;
    /// also a bare array with `X-Total-Count` (`envelope: false`).
    case folio
    /// Django REST framework: `limit`/`offset`, `{"count", "next", "previous", "results"}`.
    case drf
    /// Spring Data REST: `page`/`size`, `{"_embedded": {…}, "_links": {…}, "page": {…}}`.
    case hal
    /// json-server 0.17: `_start`/`_end`, the bare array, the total in `X-Total-Count`.
    case jsonServer = "jsonserver"
    /// react-admin's simple REST: `range=[a,b]`, the bare array, the total in `Content-Range`.
    case simpleRest = "simplerest"
    /// OData v4: `$top`/`$skip` with `$count=true`, `{"@odata.count", "value", "@odata.nextLink"}`.
    case odata
    /// Laravel's `LengthAwarePaginator`: `page`/`per_page`, `{"current_page", "data", …, "total"}`.
    case laravel

    /// The paging parameters asking for `limit` items from `offset` (a multiple of `limit`), by
    /// the names of a route whose renames are `names`. The engine reads the same names
    /// (`PagingMode` in FolioEngine): DRF's `limit`, json-server's `_end` and simple REST's
    /// `range` have no role to rename, so they keep their names.
    func pagingQuery(offset: Int, limit: Int, names: ParameterNames) -> [URLQueryItem] {
        switch self {
        case .folio:
            [
                URLQueryItem(name: names.pageSize, value: "\(limit)"),
                URLQueryItem(name: names.offset, value: "\(offset)"),
            ]
        case .drf:
            [
                URLQueryItem(name: "limit", value: "\(limit)"),
                URLQueryItem(name: names.offset("offset"), value: "\(offset)"),
            ]
        case .hal:
            [
                URLQueryItem(name: names.page("page"), value: "\(offset / limit)"),
                URLQueryItem(name: names.pageSize("size"), value: "\(limit)"),
            ]
        case .jsonServer:
            [
                URLQueryItem(name: names.offset("_start"), value: "\(offset)"),
                URLQueryItem(name: "_end", value: "\(offset + limit)"),
            ]
        case .simpleRest: [URLQueryItem(name: "range", value: "[\(offset),\(offset + limit - 1)]")]
        case .odata:
            [
                URLQueryItem(name: names.pageSize("$top"), value: "\(limit)"),
                URLQueryItem(name: names.offset("$skip"), value: "\(offset)"),
                URLQueryItem(name: "$count", value: "true"),
            ]
        case .laravel:
            [
                URLQueryItem(name: names.page("page"), value: "\(offset / limit + 1)"),
                URLQueryItem(name: names.pageSize("per_page"), value: "\(limit)"),
            ]
        }
    }

    /// Reads a `200` answer of this dialect.
    func page<Element: Decodable & Sendable>(
        of type: Element.Type, from data: Data, response: HTTPURLResponse
    ) throws(ClientError) -> Page<Element> {
        let links = Links(header: response.header("Link"))
        var page: Page<Element>
        do {
            switch self {
            case .folio: page = try FolioBody<Element>.page(data, response: response)
            case .drf: page = try JSONDecoder().decode(DRFBody<Element>.self, from: data).page
            case .hal: page = try JSONDecoder().decode(HALBody<Element>.self, from: data).page
            case .jsonServer: page = try BareBody<Element>.page(data, total: response.header("X-Total-Count"))
            case .simpleRest: page = try BareBody<Element>.page(data, contentRange: response.header("Content-Range"))
            case .odata: page = try JSONDecoder().decode(ODataBody<Element>.self, from: data).page
            case .laravel: page = try JSONDecoder().decode(LaravelBody<Element>.self, from: data).page
            }
        } catch let error as ClientError {
            throw error
        } catch {
            throw .malformed("not a \(rawValue) page: \(error)")
        }
        page.snapshot = page.snapshot ?? links.snapshot ?? page.next.flatMap(Links.snapshot(in:))
        page.next = page.next ?? links["next"]
        page.first = page.first ?? links["first"]
        return page
    }
}
