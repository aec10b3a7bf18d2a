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
    /// Changes for the UI, in the order they happened. An `AsyncStream` has one consumer: other
    /// places that want them too call `observe()`.
    public let changes: AsyncStream<PagedListChange>

    let state: Mutex<State>
    let continuation: AsyncStream<PagedListChange>.Continuation
    /// The streams of `observe()`, by number.
    let observers = Mutex(Observers())

    /// How long the visible range must stay still before the pages scrolled onto the screen
    /// are asked for when the scrolling was too fast to ask them sooner (docs/CLIENT.md, "Flings").
    public let settleDelay: Duration

    /// - Parameters:
    ///   - pageSize: items per request. When the first page brings fewer items than asked and
    ///     the list has more (a route whose `maxPageSize` is lower, with `overMaxPageSize:
    ///     clamp`), the list uses that smaller size for every later request.
    ///   - prefetchMargin: pages to load before and after the visible ones.
    ///   - settleDelay: see `settleDelay`; setting the same range again settles it at once.
    public init(
        endpoint: ListEndpoint, pageSize: Int = 25, prefetchMargin: Int = 1, maxConcurrentLoads: Int = 4,
        settleDelay: Duration = .milliseconds(100)
    ) {
        precondition(pageSize > 0 && maxConcurrentLoads > 0 && prefetchMargin >= 0)
        self.endpoint = endpoint
        self.requestedPageSize = pageSize
        self.prefetchMargin = prefetchMargin
        self.maxConcurrentLoads = maxConcurrentLoads
        self.settleDelay = settleDelay
        (changes, continuation) = AsyncStream.makeStream(of: PagedListChange.self)
        state = Mutex(State(pageSize: pageSize, motion: ScrollMotion(settleDelay: settleDelay)))
    }

    deinit {
        continuation.finish()
        for observer in observers.withLock({ $0.streams.values }) { observer.finish() }
    }

    /// Loads the first page: afterwards `count` is the list's size and the snapshot is pinned.
    ///
    /// Called again (pull to refresh), it starts over from the current snapshot as a 410 does:
    /// requests of the old one are cancelled and their answers dropped, every page is asked
    /// anew, and `.reset(count:)` reports the new count. A failed call changes nothing.
    ///
    /// Calls that overlap share one request and return together. A caller cancelled (its task,
    /// e.g. a SwiftUI `.task` leaving the screen) throws `CancellationError`; the request is
    /// cancelled when no caller waits for it any more, and counted as cancelled, not failed. An
    /// answer older than the list installed meanwhile (a reset after a 410 that was asked later)
    /// is dropped: the list never goes back in time.
    public func load() async throws {
        let (id, request) = state.withLock { state -> (Int, Task<Void, any Error>) in
            if var refresh = state.refresh {
                refresh.waiters += 1
                state.refresh = refresh
                return (refresh.id, refresh.task)
            }
            state.nextInstall += 1
            let id = state.nextInstall
            state.statistics.started += 1
            let task = Task { try await self.refresh(id) }
            state.refresh = Refresh(id: id, task: task)
            return (id, task)
        }
        try await withTaskCancellationHandler {
            try await request.value
        } onCancel: {
            let abandoned = state.withLock { state -> Task<Void, any Error>? in
                guard var refresh = state.refresh, refresh.id == id else { return nil }
                refresh.waiters -= 1
                state.refresh = refresh
                return refresh.waiters == 0 ? refresh.task : nil
            }
            abandoned?.cancel()
        }
        try Task.checkCancellation()
    }

    /// The request of `load()` number `id` (shared by overlapping calls).
    private func refresh(_ id: Int) async throws {
        let started = ContinuousClock.now
        let asked = requestedPageSize
        do {
            let page: Page<Element> = try await endpoint.page(endpoint.pageURL(offset: 0, limit: asked, snapshot: nil))
            state.withLock { state in
                state.refresh = nil
                state.statistics.loaded += 1
                state.latency.record(ContinuousClock.now - started)
                install(page, asked: asked, order: id, in: &state)
            }
        } catch {
            state.withLock { state in
                state.refresh = nil
                if error is CancellationError { state.statistics.cancelled += 1 } else { state.statistics.failed += 1 }
            }
            throw error
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
            if state.isLoaded(page: page) { return state.element(at: index) }
            if state.loading[page] == nil, !state.failed.contains(page) {
                state.queue.removeAll { $0 == page }
                state.queue.insert(page, at: 0)
                pump(&state)
            }
            return nil
        }
    }

    /// The element at `index`, or nil while its page is not loaded, without asking for anything
    /// (a row drawn off screen, a log line, a test).
    public func peek(at index: Int) -> Element? {
        state.withLock { $0.element(at: index) }
    }

    /// Tells the list which indexes are on screen: their pages load first, then `prefetchMargin`
    /// pages on each side, nearest first; requests for pages outside that window are cancelled.
    ///
    /// Call it on every frame that moves (`scrollViewDidScroll`). While the range moves too fast
    /// for a page to be still on screen when its answer arrives (judged by the speed and the
    /// round trips measured so far), that page is not asked; it is asked once the range has
    /// stayed still for `settleDelay`, or at once when the same range is set again (call it on
    /// `scrollViewDidEndDecelerating` to skip the wait). docs/CLIENT.md, "Flings".
    public func setVisibleRange(_ range: Range<Int>) {
        state.withLock { state in
            state.motion.move(to: range, at: ContinuousClock.now)
            let window = self.window(for: range, count: state.count, pageSize: state.pageSize)
            state.window = window
            state.visible = range
            // A failed page that left the window is asked again when it comes back.
            state.failed.formIntersection(window)
            for (page, load) in state.loading where !window.contains(page) {
                cancel(page, load, in: &state)
            }
            state.queue = window.filter {
                !state.isLoaded(page: $0) && state.loading[$0] == nil && !state.failed.contains($0)
            }
            deferPages(in: &state)
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
