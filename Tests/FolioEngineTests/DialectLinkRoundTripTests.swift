import Testing

@testable import FolioEngine

/// Every link a dialect writes is a request the same dialect reads back as the same slice size,
/// spelling and kept parameters, pointing at the offset it names (docs/API.md, "The page" and "Dialects").
@Suite struct DialectLinkRoundTripTests {
    /// Pieces a query is built from: each dialect's paging, sort and filter names with good and
    /// bad values, Folio's own parameters and unknown ones.
    static let pieces = [
        "page=2", "page=1", "page=0", "page_size=7", "limit=5", "offset=12", "size=3", "sort=price,desc",
        "sort=price&sort=id", "sort=-price", "_page=3", "_limit=4", "_start=6", "_end=11", "_sort=price,id",
        "_order=desc", "_order=asc,DESC", "price_gte=3", "id_ne=2", "range=%5B4%2C9%5D", "range=[0, 2]",
        "sort=%5B%22price%22%2C%22DESC%22%5D", "filter=%7B%22id%22%3A%5B1%2C2%5D%2C%22q%22%3A%22a%22%7D",
        "q=x", "fields=id", "snapshot=old", "metadataOnly", "other=%C3%A9", "pageSize=9", "price[lt]=5",
        "id=4&id=5",
        // The dialects of docs/API.md, "More dialects".
        "per_page=4", "page%5Bsize%5D=3", "page[number]=2", "page[offset]=4&page[limit]=3", "filter[price][gte]=2",
        "fields[objects]=id", "%24top=3", "$skip=4", "$filter=price%20gt%201", "$orderby=price%20desc", "$count=true",
        "pagination[page]=2", "pagination[pageSize]=3", "pagination[start]=1", "sort[0]=price:desc",
        "filters[id][$in][0]=1", "starting_after=5", "ending_before=9",
    ]

    @Test func linksReadBackAsTheSameRequest() throws {
        var random = SplitMix64(seed: 0xD1A1EC7)
        var accepted = 0
        for _ in 0..<2000 {
            let query = (0..<random.below(5)).map { _ in random.pick(Self.pieces) }.joined(separator: "&")
            for dialect in Dialect.all {
                let options = PagingOptions(defaultPageSize: 6, maxPageSize: 8, dialect: dialect)
                let filtering = PagingOptions(
                    defaultPageSize: options.defaultPageSize, maxPageSize: options.maxPageSize,
                    filterable: ["id", "price"], dialect: dialect)
                guard
                    let request = try? ListRequest.interpret(
                        QueryString.parse(Substring(query)), options: filtering, rangeHeader: nil)
                else { continue }
                accepted += 1
                let links = LinkBuilder(base: "/o", request: request, options: filtering, snapshot: "s1")
                let paging = Paging(
                    totalCount: 50, offset: request.offset, pageSize: request.pageSize, pageBase: options.pageBase)
                for case let offset? in [paging.first, paging.previous, paging.next, paging.last] {
                    let url = links.url(offset: offset)
                    let linkQuery = url[url.index(after: try #require(url.firstIndex(of: "?")))...]
                    let linked = try ListRequest.interpret(
                        QueryString.parse(linkQuery), options: filtering, rangeHeader: nil)
                    let context = "\(dialect.name): \(query) -> \(url)"
                    #expect(linked.pageSize == request.pageSize, "\(context)")
                    #expect(linked.spelling == request.spelling && linked.style == request.style, "\(context)")
                    #expect(linked.snapshot == "s1" && linked.sort == request.sort, "\(context)")
                    #expect(linked.filters == request.filters && linked.q == request.q, "\(context)")
                    // Decoded, as sent (links escape only what no URI may hold, e.g. a space).
                    #expect(linked.kept.map(\.key) == request.kept.map(\.key), "\(context)")
                    #expect(linked.kept.map(\.value) == request.kept.map(\.value), "\(context)")
                    // Cursor links name the item before the page, which only the list resolves.
                    if case .cursor = request.spelling { continue }
                    // Page-numbered links only ever point at aligned offsets.
                    if case .page = request.spelling ?? .folio(names: options.names, style: request.style, pageBase: 0),
                        offset % request.pageSize != 0
                    {
                        continue
                    }
                    #expect(linked.offset == offset, "\(context)")
                }
            }
        }
        #expect(accepted > 1000, "the pieces should mostly make valid requests")
    }
}
