import FolioEngine

extension Crawler {
    /// Follows the pages one after another, each streamed straight into the indexer: the next
    /// URL is only known once a page is in (its `Link` header, its `nextField`, or its length).
    func fetchRemainingInSequence(
        after first: FirstPage, nextPointer: JSONPointer?, into box: IndexerBox, state: inout CrawlState
    ) async throws {
        guard case .page(var head, var body, _) = first else { return }
        while let next = try nextURL(after: head, body: body, nextPointer: nextPointer, state: state) {
            guard state.pages < paging.maxPages else { throw FolioError.crawlTooManyPages(maxPages: paging.maxPages) }
            state.visited.insert(next)
            (head, body) = try await fetchPage(state.pages + 1, url: next, into: box)
            state.record(page: body, head: head, freshness: pageFreshness)
        }
    }
}
