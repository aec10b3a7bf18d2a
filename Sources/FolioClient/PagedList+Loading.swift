import Foundation
import Synchronization

extension PagedList {
    /// Everything the lock guards.
    struct State: Sendable {
        var count = 0
        var snapshot: String?
        /// Bumped by each reset: answers of an older generation are dropped.
        var generation = 0
        var pages: [Int: [Element]] = [:]
        var loading: [Int: Load] = [:]
        /// Pages wanted and not yet started, in load order.
        var queue: [Int] = []
        /// The pages of the last visible range plus margin, in load order.
        var window: [Int] = []
        var resetting = false
        var nextLoad = 0
        var statistics = PagedListStatistics()

        func pageCount(_ pageSize: Int) -> Int { (count + pageSize - 1) / pageSize }

        /// Takes the first page of a (new) snapshot.
        mutating func start(_ page: Page<Element>) {
            count = page.totalCount
            snapshot = page.snapshot
            pages = [0: page.items]
        }
    }

    struct Load: Sendable {
        var id: Int
        var task: Task<Void, Never>
    }

    /// Starts queued pages while fewer than `maxConcurrentLoads` are in flight.
    func pump(_ state: inout State) {
        while state.loading.count < maxConcurrentLoads, !state.resetting, !state.queue.isEmpty {
            let page = state.queue.removeFirst()
            guard state.pages[page] == nil, state.loading[page] == nil else { continue }
            let id = state.nextLoad
            state.nextLoad += 1
            let url = endpoint.pageURL(offset: page * pageSize, limit: pageSize, snapshot: state.snapshot)
            let generation = state.generation
            state.statistics.started += 1
            let task = Task { await self.load(page, url: url, id: id, generation: generation) }
            state.loading[page] = Load(id: id, task: task)
        }
    }

    /// One page request and what its outcome does to the state.
    private func load(_ page: Int, url: URL, id: Int, generation: Int) async {
        do {
            let answer: Page<Element> = try await endpoint.page(url)
            let range = page * pageSize..<(page * pageSize + answer.items.count)
            let kept = state.withLock { state in
                finish(page, id: id, in: &state)
                guard generation == state.generation else { return false }
                state.pages[page] = answer.items
                state.statistics.loaded += 1
                return true
            }
            if kept { continuation.yield(.pageLoaded(range)) }
        } catch is CancellationError {
            // Counted by `setVisibleRange`, which cancelled it.
            state.withLock { finish(page, id: id, in: &$0) }
        } catch let error as ClientError where error.code == .snapshotGone {
            state.withLock { finish(page, id: id, in: &$0) }
            await reset(after: error, generation: generation)
        } catch {
            let failure = error as? ClientError ?? .transport(error)
            let current = state.withLock { state in
                finish(page, id: id, in: &state)
                state.statistics.failed += 1
                return generation == state.generation
            }
            if current { continuation.yield(.pageFailed(page: page, error: failure)) }
        }
    }

    /// Forgets load `id` of `page` (unless a newer load replaced it) and starts the next one.
    private func finish(_ page: Int, id: Int, in state: inout State) {
        if state.loading[page]?.id == id { state.loading[page] = nil }
        pump(&state)
    }

    /// SPEC 3.4: the snapshot is gone; start over from the current one (the token of the 410's
    /// `Link rel="first"`), drop every page of the old one and report the new count.
    private func reset(after gone: ClientError, generation: Int) async {
        let starts = state.withLock { state in
            guard generation == state.generation, !state.resetting else { return false }
            state.resetting = true
            for load in state.loading.values { load.task.cancel() }
            state.loading = [:]
            state.statistics.started += 1
            return true
        }
        guard starts else { return }
        let token = gone.first.flatMap(Links.snapshot(in:))
        do {
            let page: Page<Element> = try await endpoint.page(
                endpoint.pageURL(offset: 0, limit: pageSize, snapshot: token))
            let count = state.withLock { state in
                state.start(page)
                state.generation += 1
                state.resetting = false
                state.statistics.loaded += 1
                state.statistics.resets += 1
                // The same rows, now from the new snapshot.
                state.queue = state.window.filter { $0 < state.pageCount(pageSize) }
                pump(&state)
                return state.count
            }
            continuation.yield(.reset(count: count))
        } catch {
            state.withLock { state in
                state.resetting = false
                state.statistics.failed += 1
            }
            continuation.yield(.pageFailed(page: 0, error: error as? ClientError ?? .transport(error)))
        }
    }
}
