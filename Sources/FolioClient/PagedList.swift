import Foundation
import Synchronization

/// A list of known size whose elements arrive page by page (the PagedArray pattern): `count` is
/// the whole list's from the first answer, `self[i]` is nil until its page is there, and the
/// visible range drives what is loaded, what is prefetched and what is cancelled.
///
/// Every page comes from one snapshot (docs/API.md, "Snapshots"): the token of the first answer is sent with
/// every later request, so the rows stay consistent while the upstream changes. When that
/// snapshot expires (410), the list starts over from the current snapshot and reports
/// `.reset(count:)` on `changes`.
///
/// Thread-safe and non-blocking: the subscript takes a lock, never waits for the network, and
/// may be called from the main thread of a table view's data source.
public final class PagedList<Element: Decodable & Sendable>: Sendable {
    public let endpoint: ListEndpoint
    /// The page size asked for at creation.
    public let requestedPageSize: Int
    /// Pages loaded beyond each side of the visible range.
    public let prefetchMargin: Int
    /// Page requests in flight at most; further wanted pages wait in window order.
    public let maxConcurrentLoads: Int
    /// Changes for the UI, in the order they happened. One consumer.
    public let changes: AsyncStream<PagedListChange>

    let state: Mutex<State>
    let continuation: AsyncStream<PagedListChange>.Continuation

    /// - Parameters:
    ///   - pageSize: items per request. When the first page brings fewer items than asked and
    ///     the list has more (a route whose `maxPageSize` is lower, with `overMaxPageSize:
    ///     clamp`), the list uses that smaller size for every later request.
    ///   - prefetchMargin: pages to load before and after the visible ones.
    public init(endpoint: ListEndpoint, pageSize: Int = 25, prefetchMargin: Int = 1, maxConcurrentLoads: Int = 4) {
        precondition(pageSize > 0 && maxConcurrentLoads > 0 && prefetchMargin >= 0)
        self.endpoint = endpoint
        self.requestedPageSize = pageSize
        self.prefetchMargin = prefetchMargin
        self.maxConcurrentLoads = maxConcurrentLoads
        (changes, continuation) = AsyncStream.makeStream(of: PagedListChange.self)
        state = Mutex(State(pageSize: pageSize))
    }

    deinit {
        continuation.finish()
    }

    /// Loads the first page: afterwards `count` is the list's size and the snapshot is pinned.
    ///
    /// Called again (pull to refresh), it starts over from the current snapshot as a 410 does:
    /// requests of the old one are cancelled and their answers dropped, every page is asked
    /// anew, and `.reset(count:)` reports the new count. A failed call changes nothing.
    public func load() async throws {
        state.withLock { $0.statistics.started += 1 }
        let page: Page<Element>
        do {
            page = try await endpoint.page(endpoint.pageURL(offset: 0, limit: requestedPageSize, snapshot: nil))
        } catch {
            state.withLock { $0.statistics.failed += 1 }
            throw error
        }
        state.withLock { state in
            install(page, asked: requestedPageSize, in: &state)
            state.statistics.loaded += 1
        }
    }

    /// Items per request: `requestedPageSize`, or the smaller size the route served the first
    /// page with.
    public var pageSize: Int { state.withLock { $0.pageSize } }

    /// Asks again for the pages whose load failed (`.pageFailed`) and that are still in the
    /// visible range or its margin (all of them when no range was set). A failed page is not
    /// retried by itself while it stays there, so a failing server is not asked in a loop by
    /// every redraw; one that leaves the window is asked again when it comes back. After a
    /// reset that failed (`.pageFailed(page: 0, …)` following a 410), it tries the reset again.
    public func retryFailedPages() {
        let reset = state.withLock { state -> (ClientError, Int)? in
            if let gone = state.failedReset {
                state.failedReset = nil
                return (gone, state.generation)
            }
            let failed =
                state.visible == nil ? state.failed.sorted() : state.window.filter { state.failed.contains($0) }
            state.failed = []
            state.queue.removeAll { failed.contains($0) }
            state.queue.insert(contentsOf: failed, at: 0)
            pump(&state)
            return nil
        }
        if let (gone, generation) = reset { Task { await self.reset(after: gone, generation: generation) } }
    }

    /// The list's size (0 before `load()`).
    public var count: Int { state.withLock { $0.count } }

    /// The snapshot token every page is asked from.
    public var snapshot: String? { state.withLock { $0.snapshot } }

    public var statistics: PagedListStatistics { state.withLock { $0.statistics } }

    /// The element at `index`, or nil while its page is not loaded (a placeholder). Touching a
    /// placeholder schedules its page ahead of the prefetched ones, unless its load failed
    /// (`retryFailedPages()`).
    public subscript(index: Int) -> Element? {
        state.withLock { state in
            guard index >= 0, index < state.count else { return nil }
            let page = index / state.pageSize
            if let items = state.pages[page] {
                let position = index - page * state.pageSize
                return position < items.count ? items[position] : nil
            }
            if state.loading[page] == nil, !state.failed.contains(page) {
                state.queue.removeAll { $0 == page }
                state.queue.insert(page, at: 0)
                pump(&state)
            }
            return nil
        }
    }

    /// Tells the list which indexes are on screen: their pages load first, then `prefetchMargin`
    /// pages on each side, nearest first; requests for pages outside that window are cancelled.
    public func setVisibleRange(_ range: Range<Int>) {
        state.withLock { state in
            let window = self.window(for: range, count: state.count, pageSize: state.pageSize)
            state.window = window
            state.visible = range
            // A failed page that left the window is asked again when it comes back.
            state.failed.formIntersection(window)
            for (page, load) in state.loading where !window.contains(page) {
                load.task.cancel()
                state.loading[page] = nil
                state.statistics.cancelled += 1
                continuation.yield(.pageCancelled(page: page))
            }
            state.queue = window.filter {
                state.pages[$0] == nil && state.loading[$0] == nil && !state.failed.contains($0)
            }
            pump(&state)
        }
    }

    /// The pages of `range` in load order: visible ones in order, then the margin by distance.
    func window(for range: Range<Int>, count: Int, pageSize: Int) -> [Int] {
        let pageCount = (count + pageSize - 1) / pageSize
        let clamped = range.clamped(to: 0..<count)
        guard !clamped.isEmpty else { return [] }
        let firstPage = clamped.lowerBound / pageSize
        let lastPage = (clamped.upperBound - 1) / pageSize
        var pages = Array(firstPage...lastPage)
        for distance in stride(from: 1, through: prefetchMargin, by: 1) {
            if lastPage + distance < pageCount { pages.append(lastPage + distance) }
            if firstPage - distance >= 0 { pages.append(firstPage - distance) }
        }
        return pages
    }
}
