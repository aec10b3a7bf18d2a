import Foundation
import Testing

@testable import FolioGateway

/// A list served the way partially paginated legacy endpoints serve it, for crawl tests.
///
/// The upstream never puts more than `cap` items on a page, whatever size is asked for, so the
/// crawler's stop rules (not the requested size) decide how far it goes.
struct PagedUpstream: Sendable {
    enum Style: Sendable, CustomStringConvertible {
        /// `?page=k` from 1, bare arrays, `Link: <…?page=k+1>; rel="next"` while more remain.
        case linkHeader
        /// `?page=k` from 1, `{"items":[…],"next":"…?page=k+1"}`, `"next":null` on the last page.
        case nextField
        /// `?page=k&per_page=n` from `first`, `{"data":[…]}` (plus `"total"` when asked).
        case page(first: Int)
        /// `?offset=o&per_page=n`, `{"data":[…]}` (plus `"total"` when asked).
        case offset

        var description: String {
            switch self {
            case .linkHeader: "linkHeader"
            case .nextField: "nextField"
            case .page(let first): "page(first: \(first))"
            case .offset: "offset"
            }
        }
    }

    let elements: [String]
    let cap: Int
    let style: Style
    /// Send `"total": count` in every body (styles page and offset).
    var total = false
    /// The upstream's path; next links point to it.
    var path = "/items"
    /// Prefix of next links (e.g. `http://127.0.0.1:PORT`); empty: links are relative.
    var linkBase = ""

    init(count: Int, cap: Int = 20, style: Style, total: Bool = false, tag: String = "v1") {
        self.elements = objectsBody(count, tag: tag).elements
        self.cap = cap
        self.style = style
        self.total = total
    }

    /// The route keys (indented for `gatewayYAML`'s route mapping) that crawl this upstream.
    func routeKeys(_ extra: String = "") -> String {
        let totalKey = total ? ", totalField: /total" : ""
        let extraKeys = extra.isEmpty ? "" : ", " + extra
        switch style {
        case .linkHeader:
            return "upstreamPaging: { style: linkHeader\(extraKeys) }"
        case .nextField:
            return "items: /items\nupstreamPaging: { style: nextField, nextField: /next\(extraKeys) }"
        case .page(let first):
            return
                "items: /data\nupstreamPaging: { style: page, size: 100, firstPage: \(first)\(totalKey)\(extraKeys) }"
        case .offset:
            return "items: /data\nupstreamPaging: { style: offset, size: 100\(totalKey)\(extraKeys) }"
        }
    }

    /// The 0-based page a request asks for, by the style's own parameters.
    func pageIndex(_ request: TestUpstream.Recorded) -> Int {
        switch style {
        case .linkHeader, .nextField: (request.queryValue("page").flatMap(Int.init) ?? 1) - 1
        case .page(let first): (request.queryValue("page").flatMap(Int.init) ?? first) - first
        // Offsets step by the first page's length.
        case .offset: (request.queryValue("offset").flatMap(Int.init) ?? 0) / max(1, min(elements.count, cap))
        }
    }

    /// The answer to one request, before any test-specific change.
    func reply(_ request: TestUpstream.Recorded) -> TestUpstream.Reply {
        let asked = request.queryValue("per_page").flatMap(Int.init) ?? cap
        let size = min(asked, cap)
        let start: Int
        switch style {
        case .linkHeader, .nextField: start = pageIndex(request) * cap
        case .page: start = pageIndex(request) * size
        case .offset: start = request.queryValue("offset").flatMap(Int.init) ?? 0
        }
        let pageSize = style.isStepping ? size : cap
        let slice = elements[min(max(0, start), elements.count)..<min(max(0, start + pageSize), elements.count)]
        let array = "[" + slice.joined(separator: ",") + "]"
        let nextPage = pageIndex(request) + 2
        let hasNext = start + pageSize < elements.count
        switch style {
        case .linkHeader:
            let link = hasNext ? [("Link", "<\(linkBase)\(path)?page=\(nextPage)>; rel=\"next\"")] : []
            return .json(array, headers: link)
        case .nextField:
            let next = hasNext ? "\"\(linkBase)\(path)?page=\(nextPage)\"" : "null"
            return .json(#"{"items":\#(array),"next":\#(next)}"#)
        case .page, .offset:
            return .json(#"{"data":\#(array)\#(total ? ",\"total\":\(elements.count)" : "")}"#)
        }
    }

    /// Pages a correct crawl requests: link styles follow links until the last page; stepping
    /// styles without a total also ask for the page after the last full one (it comes back short
    /// or empty), since a page as long as the first never ends a crawl.
    var expectedRequests: Int {
        let n = elements.count
        guard n > 0 else { return 1 }
        let perPage = min(n, cap)
        switch style {
        case .linkHeader, .nextField: return (n + cap - 1) / cap
        case .page, .offset: return total ? (n + perPage - 1) / perPage : n / perPage + 1
        }
    }
}

extension PagedUpstream.Style {
    var isStepping: Bool {
        switch self {
        case .page, .offset: true
        case .linkHeader, .nextField: false
        }
    }
}

extension TestUpstream.Recorded {
    /// The raw value of the first `name=` query parameter.
    func queryValue(_ name: String) -> String? {
        guard let query else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts[0] == name { return parts.count > 1 ? String(parts[1]) : "" }
        }
        return nil
    }
}

/// Compares two item lists, reporting the first difference rather than both whole lists.
func expectSameItems(
    _ items: [String], _ expected: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    #expect(items.count == expected.count, sourceLocation: sourceLocation)
    let mismatch = zip(items, expected).enumerated().first { $0.element.0 != $0.element.1 }
    #expect(mismatch == nil, "first difference at \(mismatch?.offset ?? -1)", sourceLocation: sourceLocation)
}
