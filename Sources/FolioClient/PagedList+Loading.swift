import Foundation
import Synchronization

extension PagedList {
    /// Everything the lock guards.
    struct State: Sendable {
        /// Items per request (`PagedList.pageSize`).
        var pageSize: Int
        var count = 0
        var snapshot: String?
        /// Bumped by each reset: answers of an older generation are dropped.
        var generation = 0
        /// The rows, loaded or placeholders (`SparseRows`: a patch shifts them in place).
        var rows = SparseRows<Element>(count: 0)
        /// Pages answered in this generation, loaded even if the answer had fewer rows than
        /// the count promised (so a short page is not asked in a loop).
        var answered: Set<Int> = []
        var loading: [Int: Load] = [:]
        /// Pages whose load failed in this generation, not asked again until
        /// `retryFailedPages()` or until they leave the window.
        var failed: Set<Int> = []
        /// Pages wanted and not yet started, in load order.
        var queue: [Int] = []
        /// The pages of the last visible range plus margin, in load order.
        var window: [Int] = []
        /// The last visible range (`setVisibleRange`), for a window in a new page size.
        var visible: Range<Int>?
        var resetting = false
        /// The 410 whose reset failed: the list stays on the old snapshot and asks nothing
        /// until `retryFailedPages()` tries the reset again (or `load()`).
        var failedReset: ClientError?
        var nextLoad = 0
        var statistics = PagedListStatistics()
        /// How the visible range moves, and the window pages not worth asking at this speed.
        var motion: ScrollMotion
        var deferred: Set<Int> = []
        var settleTimer: Task<Void, Never>?
        var settleTicket = 0
        var latency = LatencyEstimate()
        /// Loads cancelled whose requests have not ended yet, by load id: they keep their slot
        /// of `maxConcurrentLoads` until the transport gives up on them.
        var ending: [Int: Task<Void, Never>] = [:]
        /// The `load()` request in flight, shared by overlapping calls.
        var refresh: Refresh?
        /// First-page requests (`load()` and resets) are numbered as they start; only an answer
        /// numbered above the installed one is installed.
        var nextInstall = 0
        var installed = 0

        var pageCount: Int { (count + pageSize - 1) / pageSize }

        /// The element at `index` if its row is loaded.
        func element(at index: Int) -> Element? {
            rows[index]
        }

        /// What to ask for `page`: the whole page while none of it is loaded (and always when
        /// the dialect asks by page number), else its first run of placeholders, so that after
        /// a patch no loaded row is asked again.
        func missingRows(of page: Int, byOffset: Bool) -> (offset: Int, limit: Int) {
            let rows = page * pageSize..<min((page + 1) * pageSize, count)
            guard byOffset, let first = rows.first(where: { self.rows[$0] == nil }),
                rows.contains(where: { self.rows[$0] != nil })
            else { return (page * pageSize, pageSize) }
            let end = rows[first...].first { self.rows[$0] != nil } ?? rows.upperBound
            return (first, end - first)
        }

        /// Whether every row of `page` is loaded (nothing left to ask).
        func isLoaded(page: Int) -> Bool {
            answered.contains(page) || rows.isLoaded(page * pageSize..<(page + 1) * pageSize)
        }
    }

    struct Refresh: Sendable {
        var id: Int
        var task: Task<Void, any Error>
        var waiters = 1
    }

    struct Load: Sendable {
        var id: Int
        var task: Task<Void, Never>
        var started: ContinuousClock.Instant
    }

    /// Starts queued pages (but the deferred ones) while fewer than `maxConcurrentLoads` are in
    /// flight, counting cancelled ones whose requests have not ended.
    func pump(_ state: inout State) {
        while state.loading.count + state.ending.count < maxConcurrentLoads, !state.resetting,
            state.failedReset == nil, let next = state.queue.firstIndex(where: { !state.deferred.contains($0) })
        {
            let page = state.queue.remove(at: next)
            guard !state.isLoaded(page: page), state.loading[page] == nil else { continue }
            let id = state.nextLoad
            state.nextLoad += 1
            let asked = state.missingRows(of: page, byOffset: endpoint.dialect != .hal)
            let url = endpoint.pageURL(offset: asked.offset, limit: asked.limit, snapshot: state.snapshot)
            let generation = state.generation
            state.statistics.started += 1
            let task = Task { await self.load(page, url: url, asked: asked, id: id, generation: generation) }
            state.loading[page] = Load(id: id, task: task, started: ContinuousClock.now)
        }
    }

    /// One page request (`asked`: its rows) and what its outcome does to the state.
    private func load(
        _ page: Int, url: URL, asked: (offset: Int, limit: Int), id: Int, generation: Int
    ) async {
        do {
            let answer: Page<Element> = try await endpoint.page(url)
            state.withLock { state in
                if let load = state.loading[page], load.id == id {
                    state.latency.record(ContinuousClock.now - load.started)
                }
                if generation == state.generation {
                    state.rows.fill(answer.items, at: asked.offset)
                    if answer.items.count < asked.limit { state.answered.insert(page) }
                    state.statistics.loaded += 1
                    // Under the lock, so changes come in the order they happened (never a page
                    // of an old snapshot after its `.reset`).
                    emit(.pageLoaded(asked.offset..<(asked.offset + answer.items.count)))
                    // After a patch a page can miss several runs of rows: the next one next.
                    if !state.isLoaded(page: page), state.window.contains(page) { state.queue.insert(page, at: 0) }
                }
                finish(page, id: id, in: &state)
            }
        } catch is CancellationError {
            // Counted by `setVisibleRange`, which cancelled it.
            state.withLock { finish(page, id: id, in: &$0) }
        } catch let error as ClientError where error.code == .snapshotGone {
            state.withLock { finish(page, id: id, in: &$0) }
            // In a task of its own: the window moving on cancels this page's task, which must
            // not cancel the list's reset.
            Task { await self.reset(after: error, generation: generation) }
        } catch {
            let failure = error as? ClientError ?? .transport(error)
            state.withLock { state in
                finish(page, id: id, in: &state)
                state.statistics.failed += 1
                guard generation == state.generation else { return }
                state.failed.insert(page)
                emit(.pageFailed(page: page, error: failure))
            }
        }
    }

    /// Takes the first page of a (new) snapshot, asked with `asked` items: a new generation
    /// (loads of the old one are cancelled, their answers dropped), its count and token, and
    /// the page size the route served (smaller than asked when its `maxPageSize` is); reports
    /// `.reset(count:)` when it replaces a list, then asks again for the pages of the window.
    ///
    /// `order` is the number of the first-page request that brought it: an answer to a request
    /// started before the installed one's is older and dropped (returns false).
    @discardableResult
    func install(_ page: Page<Element>, asked: Int, order: Int, in state: inout State) -> Bool {
        guard order > state.installed else { return false }
        state.installed = order
        cancelLoads(in: &state)
        // The first `load()` installs generation 1; any later install replaces a list.
        let replaces = state.generation > 0
        state.generation += 1
        state.resetting = false
        state.failedReset = nil
        state.failed = []
        state.count = page.totalCount
        state.snapshot = page.snapshot
        let served = page.items.count
        state.pageSize = served > 0 && served < asked && served < page.totalCount ? served : asked
        if let visible = state.visible {
            state.window = window(for: visible, count: state.count, pageSize: state.pageSize)
        }
        state.rows = SparseRows(count: state.count)
        state.rows.fill(page.items, at: 0)
        state.answered = [0]
        state.queue = state.window.filter { $0 < state.pageCount }
        deferPages(in: &state)
        if replaces {
            state.statistics.resets += 1
            emit(.reset(count: state.count))
        }
        pump(&state)
        return true
    }

    /// Cancels every page request in flight (a reset starts over), each reported as
    /// `.pageCancelled` and counted, as the window's cancellations are, in page order.
    func cancelLoads(in state: inout State) {
        for (page, load) in state.loading.sorted(by: { $0.key < $1.key }) {
            cancel(page, load, in: &state)
        }
    }

    /// Cancels one page's load, reported and counted; its slot stays taken until it ends.
    func cancel(_ page: Int, _ load: Load, in state: inout State) {
        load.task.cancel()
        state.loading[page] = nil
        state.ending[load.id] = load.task
        state.statistics.cancelled += 1
        emit(.pageCancelled(page: page))
    }

    /// Forgets load `id` of `page` (unless a newer load replaced it) and starts the next one.
    private func finish(_ page: Int, id: Int, in state: inout State) {
        if state.loading[page]?.id == id { state.loading[page] = nil }
        state.ending[id] = nil
        pump(&state)
    }

    /// docs/API.md, "Snapshots": the snapshot is gone; start over from the current one (the token of the 410's
    /// `Link rel="first"`), drop every page of the old one and report the new count. An answer
    /// that comes after a newer list was installed (`load()` meanwhile) is dropped.
    func reset(after gone: ClientError, generation: Int) async {
        let asked = state.withLock { state -> (size: Int, order: Int)? in
            guard generation == state.generation, !state.resetting else { return nil }
            state.resetting = true
            state.failedReset = nil
            cancelLoads(in: &state)
            state.statistics.started += 1
            state.nextInstall += 1
            return (state.pageSize, state.nextInstall)
        }
        guard let (asked, order) = asked else { return }
        let token = gone.first.flatMap(Links.snapshot(in:))
        do {
            let page: Page<Element> = try await endpoint.page(
                endpoint.pageURL(offset: 0, limit: asked, snapshot: token))
            state.withLock { state in
                state.statistics.loaded += 1
                guard generation == state.generation else { return }
                // The same rows, now from the new snapshot.
                install(page, asked: asked, order: order, in: &state)
            }
        } catch {
            // The list stays on the old snapshot and asks nothing more of it (every page would
            // answer 410 and start this again): `retryFailedPages()` tries the reset again.
            state.withLock { state in
                state.statistics.failed += 1
                guard generation == state.generation else { return }
                state.resetting = false
                state.failedReset = gone
                emit(.pageFailed(page: 0, error: error as? ClientError ?? .transport(error)))
            }
        }
    }
}
