import Foundation

/// The other seed pattern: a feed that appends page after page by following `next` until
/// `hasMore` is false (infinite scroll without a known end).
///
/// A failed step leaves the feed as it was, so calling `loadMore()` again asks the same page:
/// no item is skipped or appended twice. Calls that overlap share one request: the call that
/// started it returns the page's items, the others wait for it and return `[]`, so
/// `rows += try await feed.loadMore()` from two triggers (a scroll and a button) adds each item
/// once. Cancelling a caller does not cancel the shared request.
public actor LoadMoreFeed<Element: Decodable & Sendable> {
    public let endpoint: ListEndpoint
    public let pageSize: Int
    public private(set) var items: [Element] = []
    /// False once a page without `next` arrived.
    public private(set) var hasMore = true
    /// The list's total, once the first page arrived.
    public private(set) var totalCount: Int?
    /// The snapshot token the feed follows (docs/API.md, "Snapshots"), once the first page
    /// arrived: for a section index or a `PagedList` of the same rows.
    public private(set) var snapshot: String?

    private var next: URL?
    private var inFlight: Task<Page<Element>, any Error>?

    public init(endpoint: ListEndpoint, pageSize: Int = 25) {
        self.endpoint = endpoint
        self.pageSize = pageSize
    }

    /// Calls that joined another's request, for tests.
    private(set) var joined = 0

    /// Loads the next page and returns its items (already appended to `items`); `[]` at the end,
    /// and to a call that joined another's request (that call returns the items; `items` holds
    /// them when either returns). Tell the end by `hasMore`, not by an empty answer.
    @discardableResult
    public func loadMore() async throws -> [Element] {
        if let inFlight {
            joined += 1
            _ = try await inFlight.value
            return []
        }
        guard hasMore else { return [] }
        let url = next ?? endpoint.pageURL(offset: 0, limit: pageSize, snapshot: nil)
        let endpoint = endpoint
        // The request appends its page itself, before any waiting call resumes.
        let task = Task { () async throws -> Page<Element> in
            let page: Page<Element> = try await endpoint.page(url)
            self.append(page)
            return page
        }
        inFlight = task
        defer { inFlight = nil }
        return try await task.value.items
    }

    private func append(_ page: Page<Element>) {
        items += page.items
        totalCount = page.totalCount
        snapshot = page.snapshot ?? snapshot
        next = page.next.flatMap(endpoint.resolve)
        hasMore = next != nil
    }
}
