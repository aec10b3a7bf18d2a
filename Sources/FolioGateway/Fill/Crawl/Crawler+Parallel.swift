import FolioEngine
import NIOCore

extension Crawler {
    /// With `totalField` the number of pages is known from the first one, so the rest are
    /// fetched `concurrency` at a time and indexed strictly in upstream order as they complete.
    ///
    /// Pages that complete ahead of their turn wait as received; at most `aheadPages` pages
    /// past the next one to index are started, and their bytes count against
    /// `maxUpstreamBytes` while they wait, so a slow page cannot make the others pile up.
    func fetchRemainingInParallel(
        total: Int, firstLength: Int, firstBytes: Int, into box: IndexerBox, state: inout CrawlState
    ) async throws {
        // An empty first page with a non-zero total fails the total check afterwards.
        guard firstLength > 0 else { return }
        let pageCount = total / firstLength + (total % firstLength == 0 ? 0 : 1)
        guard pageCount <= paging.maxPages else { throw FolioError.crawlTooManyPages(maxPages: paging.maxPages) }
        guard pageCount > 1 else { return }

        let budget = CrawlBudget(limit: limits.maxBytes, used: firstBytes)
        let concurrency = paging.concurrency
        let aheadPages = concurrency * 4
        // Position 0 is the first page; offsets step by the first page's length.
        let url: (Int) -> String = { [self] position in
            steppedURL(position: paging.style == .offset ? position * firstLength : position)
        }
        try await withThrowingTaskGroup(of: (Int, UpstreamHead, [ByteBuffer]).self) { group in
            var nextToStart = 1
            var nextToIndex = 1
            var running = 0
            var waiting: [Int: (UpstreamHead, [ByteBuffer])] = [:]
            while true {
                while running < concurrency, nextToStart < pageCount, nextToStart < nextToIndex + aheadPages {
                    let position = nextToStart
                    let pageURL = url(position)
                    group.addTask {
                        let (head, chunks) = try await fetchBuffered(position + 1, url: pageURL, budget: budget)
                        return (position, head, chunks)
                    }
                    nextToStart += 1
                    running += 1
                }
                guard let (position, head, chunks) = try await group.next() else { break }
                running -= 1
                waiting[position] = (head, chunks)
                while let (head, chunks) = waiting.removeValue(forKey: nextToIndex) {
                    let pageURL = url(nextToIndex)
                    let body = try await feed(chunks, page: nextToIndex + 1, url: pageURL, into: box)
                    state.record(page: body, head: head, freshness: pageFreshness)
                    nextToIndex += 1
                }
            }
        }
    }
}
