import Foundation
import Synchronization

extension PagedList {
    struct Observers: Sendable {
        var streams: [Int: AsyncStream<PagedListChange>.Continuation] = [:]
        var next = 0
    }

    /// A stream of the list's changes from now on, besides `changes` and any other observer's
    /// (a view model and a status bar can both follow the list). It ends when the list is gone or
    /// when its consumer stops iterating.
    public func observe() -> AsyncStream<PagedListChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: PagedListChange.self)
        let id = observers.withLock { observers in
            observers.next += 1
            observers.streams[observers.next] = continuation
            return observers.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.observers.withLock { $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// Reports `change` on `changes` and to every observer. Called under the state lock, so every
    /// stream sees changes in the order they happened.
    func emit(_ change: PagedListChange) {
        continuation.yield(change)
        for observer in observers.withLock({ Array($0.streams.values) }) { observer.yield(change) }
    }

    /// The element at `index`, waiting for its page: asked at once (ahead of the prefetched
    /// pages, even while a fling defers the visible ones, and again if its load had failed).
    /// Nil when `index` is outside the list (also after a reset that shrank it).
    ///
    /// - Throws: the page's `ClientError` when its load fails, `CancellationError` when the
    ///   calling task is cancelled.
    public func element(at index: Int) async throws -> Element? {
        var changes = observe().makeAsyncIterator()
        while true {
            let wanted = state.withLock { state -> (element: Element?, page: Int)? in
                guard index >= 0, index < state.count else { return nil }
                if let element = state.element(at: index) { return (element, 0) }
                let page = index / state.pageSize
                // A page answered with fewer rows than the count promised: nothing more to ask.
                if state.isLoaded(page: page) { return nil }
                if state.loading[page] == nil {
                    state.failed.remove(page)
                    state.deferred.remove(page)
                    state.queue.removeAll { $0 == page }
                    state.queue.insert(page, at: 0)
                    pump(&state)
                }
                return (nil, page)
            }
            guard let wanted else { return nil }
            if let element = wanted.element { return element }
            waiting: while true {
                // The stream ends only when the calling task is cancelled (the list is alive: `self`).
                guard let change = await changes.next() else { throw CancellationError() }
                switch change {
                case .pageFailed(wanted.page, let error): throw error
                case .pageLoaded(let rows) where rows.contains(index): break waiting
                case .pageCancelled(wanted.page), .reset: break waiting  // ask again
                default: continue
                }
            }
        }
    }
}
