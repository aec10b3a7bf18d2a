import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// docs/API.md, "The page": `{"paging": {…}, "<itemsKey>": […]}` (items absent with `metadataOnly`), or the bare
/// array of a route with `envelope: false` (total in `X-Total-Count`).
struct FolioBody<Element: Decodable & Sendable>: Decodable {
    struct Paging: Decodable {
        var totalCount: Int
        var snapshot: String?
        var next: String?
        var first: String?
    }

    var paging: Paging
    var items: [Element]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        paging = try container.decode(Paging.self, forKey: AnyKey("paging"))
        // The one other member is the items array, whatever the route's `itemsKey` calls it.
        let itemsKey = container.allKeys.first { $0.stringValue != "paging" }
        items = try itemsKey.map { try container.decode([Element].self, forKey: $0) } ?? []
    }

    static func page(_ data: Data, response: HTTPURLResponse) throws -> Page<Element> {
        if data.first(where: { !" \n\r\t".utf8.contains($0) }) == UInt8(ascii: "[") {
            return try BareBody<Element>.page(data, total: response.header("X-Total-Count"))
        }
        let body = try JSONDecoder().decode(Self.self, from: data)
        return Page(
            items: body.items, totalCount: body.paging.totalCount, snapshot: body.paging.snapshot,
            next: body.paging.next, first: body.paging.first)
    }
}

/// Django REST framework: `{"count": N, "next": URL|null, "previous": URL|null, "results": […]}`.
struct DRFBody<Element: Decodable & Sendable>: Decodable {
    var count: Int
    var next: String?
    var results: [Element]?

    var page: Page<Element> { Page(items: results ?? [], totalCount: count, next: next) }
}

/// Spring Data REST: items under `_embedded.<itemsKey>` (absent when empty), the total in
/// `page.totalElements`, links as `{"href": …}` under `_links`.
struct HALBody<Element: Decodable & Sendable>: Decodable {
    struct PageInfo: Decodable {
        var totalElements: Int
    }

    enum CodingKeys: String, CodingKey {
        case embedded = "_embedded"
        case links = "_links"
        case info = "page"
    }

    var embedded: [String: [Element]]?
    var links: [String: LinkText]?
    var info: PageInfo

    var page: Page<Element> {
        Page(
            items: embedded?.values.first ?? [], totalCount: info.totalElements, next: links?["next"]?.href,
            first: links?["first"]?.href)
    }
}

/// OData v4: items in `value` (absent with `metadataOnly`), the total in `@odata.count` (asked for with
/// `$count=true`), the next page in `@odata.nextLink`.
struct ODataBody<Element: Decodable & Sendable>: Decodable {
    enum CodingKeys: String, CodingKey {
        case value
        case count = "@odata.count"
        case next = "@odata.nextLink"
    }

    var value: [Element]?
    var count: Int
    var next: String?

    var page: Page<Element> { Page(items: value ?? [], totalCount: count, next: next) }
}

/// Laravel's paginator: items in `data` (absent with `metadataOnly`), the total in `total`.
struct LaravelBody<Element: Decodable & Sendable>: Decodable {
    enum CodingKeys: String, CodingKey {
        case data, total
        case next = "next_page_url"
        case first = "first_page_url"
    }

    var data: [Element]?
    var total: Int
    var next: String?
    var first: String?

    var page: Page<Element> { Page(items: data ?? [], totalCount: total, next: next, first: first) }
}

/// The bare array of `jsonserver` and `simplerest`; the total comes from a header.
enum BareBody<Element: Decodable & Sendable> {
    static func page(_ data: Data, total header: String?) throws -> Page<Element> {
        guard let header, let total = Int(header.trimmingCharacters(in: .whitespaces)) else {
            throw ClientError.malformed("no X-Total-Count with a bare array")
        }
        return Page(items: try JSONDecoder().decode([Element].self, from: data), totalCount: total)
    }

    /// `Content-Range: <itemsKey> 0-24/319` or `<itemsKey> */0`: the total after the slash.
    static func page(_ data: Data, contentRange header: String?) throws -> Page<Element> {
        guard let header, let slash = header.lastIndex(of: "/"),
            let total = Int(header[header.index(after: slash)...].trimmingCharacters(in: .whitespaces))
        else {
            throw ClientError.malformed("no Content-Range total with a bare array")
        }
        return Page(items: try JSONDecoder().decode([Element].self, from: data), totalCount: total)
    }
}
