import FolioTestSupport
import Foundation
import Testing

@testable import FolioClient

/// Each dialect adapter against a real gateway route of that dialect (docs/API.md, "Dialects"): the paged list
/// walks the whole list from one snapshot, the feed follows the dialect's `next`, and the
/// section index (Folio's own parameters, the same in every dialect) lines up with the rows.
///
/// Each also on a route that renames its paging parameters (`params`, applied on top of the
/// dialect's names, docs/API.md, "Dialects"), with the endpoint given the same renames: there the standard
/// names would be ignored parameters, and every request would get the first page.
@Suite struct DialectEndToEndTests {
    @Test(arguments: Dialect.allCases, [false, true])
    func walksFeedsAndSectionsInEveryDialect(_ dialect: Dialect, renamed: Bool) async throws {
        let (body, items) = upstreamItems(53)
        let sorted = sortedByName(items)
        let names = renamed ? ParameterNames(pageSize: "n", offset: "from", page: "p") : .standard
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            let yaml = clientYAML(
                upstream: upstream.baseURL, dialect: dialect.rawValue,
                params: "{pageSize: \(names.pageSize), offset: \(names.offset), page: \(names.page)}")
            try await withClientGateway(yaml) { objects, requests in
                let endpoint = ListEndpoint(url: objects, dialect: dialect, parameterNames: names)
                let list = PagedList<Item>(endpoint: endpoint, pageSize: 10, prefetchMargin: 0)
                try await list.load()
                #expect(list.count == items.count)
                let snapshot = try #require(list.snapshot)
                var changes = list.changes.makeAsyncIterator()
                var seen: [Item] = []
                for index in (0..<list.count).reversed() {
                    seen.insert(try await element(list, at: index, changes: &changes), at: 0)
                }
                #expect(seen == sorted)
                #expect(requests.count() == 6)
                #expect(list.snapshot == snapshot)

                let index = try await list.sections()
                #expect(index.sections.reduce(0) { $0 + $1.count } == items.count)
                for section in index.sections {
                    #expect(String(sorted[section.offset].name.prefix(1)) == section.title)
                }

                let feed = LoadMoreFeed<Item>(endpoint: endpoint, pageSize: 20)
                while await feed.hasMore { try await feed.loadMore() }
                #expect(await feed.items == sorted)
                #expect(await feed.totalCount == items.count)
            }
        }
    }
}
