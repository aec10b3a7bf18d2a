import FolioTestSupport
import Foundation
import Synchronization
import Testing

@testable import FolioClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The paged list against a real gateway in front of a real upstream (docs/CLIENT.md).
@Suite struct PagedListTests {
    @Test func randomOrderAccessGivesEveryElementOnceInOrder() async throws {
        let (body, items) = upstreamItems(437)
        let expected = sortedByName(items)
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withClientGateway(clientYAML(upstream: upstream.baseURL)) { objects, requests in
                let list = PagedList<Item>(endpoint: ListEndpoint(url: objects), pageSize: 20, prefetchMargin: 0)
                try await list.load()
                #expect(list.count == expected.count)
                var changes = list.changes.makeAsyncIterator()
                var seen = [Item?](repeating: nil, count: list.count)
                // Any order must give the same list: a new one on every run.
                for index in Array(0..<list.count).shuffled() {
                    seen[index] = try await element(list, at: index, changes: &changes)
                }
                #expect(seen == expected)
                #expect(Set(seen.compactMap { $0?.id }).count == items.count)
                let pageCount = (items.count + 19) / 20
                // Each page asked once: the first by load(), the rest by the first touch of a row.
                #expect(requests.count() == pageCount)
                #expect(list.statistics == PagedListStatistics(started: pageCount, loaded: pageCount))
            }
        }
    }

    /// A fling over 2,000 rows: frames jump 100 rows one after another, far too fast for any
    /// page to be on screen when its answer would arrive, so nothing is asked while it moves;
    /// every fourth frame (and the last) the range rests (set again: settled) and exactly its
    /// window (visible plus margin) is asked, and reaches Folio.
    @Test func aFlingAsksOnlyWhereItRests() async throws {
        let (body, items) = upstreamItems(2000)
        let expected = sortedByName(items)
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withClientGateway(clientYAML(upstream: upstream.baseURL)) { objects, requests in
                let gate = GateTransport()
                // A settle delay no test machine reaches between two frames of the loop, and that
                // the rests exceed: a fling's first frame after a rest has no speed yet.
                let list = PagedList<Item>(
                    endpoint: ListEndpoint(url: objects, transport: gate), pageSize: 20, prefetchMargin: 1,
                    maxConcurrentLoads: 4, settleDelay: .milliseconds(200))
                /// Lets the waiting requests through after 300 ms, a mobile round trip: the list
                /// measures it, so a frame 100 rows on is too fast for any page to arrive in time.
                @Sendable func network(until loaded: @escaping @Sendable () -> Bool) async throws {
                    try await Task.sleep(for: .milliseconds(300))
                    gate.setOpen(true)
                    #expect(await eventually { loaded() })
                    gate.setOpen(false)
                }
                let opening = Task { try await list.load() }
                try await network { list.count > 0 }
                try await opening.value
                let tops = Array(stride(from: 100, to: 2000, by: 100)) + [1990]
                var shownAndMargin = 0
                var loaded: Set<Int> = [0]
                list.setVisibleRange(0..<10)
                list.setVisibleRange(0..<10)
                try await network { list.hasPage(1) }
                for (frame, top) in tops.enumerated() {
                    let visible = top..<min(top + 10, 2000)
                    let window = list.window(for: visible, count: list.count, pageSize: list.pageSize)
                    let started = list.statistics.started
                    list.setVisibleRange(visible)
                    // The last frame reaches the end, where any fling stops: its pages are asked.
                    if frame < tops.count - 1 {
                        #expect(list.statistics.started == started, "frame \(frame) asked while moving")
                    }
                    guard frame % 4 == 3 || frame == tops.count - 1 else { continue }
                    list.setVisibleRange(visible)  // the same range again: the scroll stopped
                    try await network { window.allSatisfy(list.hasPage) }
                    shownAndMargin += window.filter { !loaded.contains($0) }.count
                    loaded.formUnion(window)
                    for index in visible { #expect(list[index] == expected[index]) }
                }
                // Minus load()'s first page and the opening window's page 1: exactly the rests' pages.
                #expect(requests.count() - 2 == shownAndMargin)
                #expect(requests.count() == gate.passed)
                #expect(list.statistics.cancelled == 0)
            }
        }
    }

    /// The upstream changes mid-walk: pages keep coming from the first snapshot; once that
    /// snapshot is past `snapshotRetention`, the next page answers 410 and the list resets.
    @Test func pinnedWalkSurvivesUpstreamChangeThenResetsAfterExpiry() async throws {
        let version = Mutex(1)
        let (v1Body, v1Items) = upstreamItems(150, tag: "v1")
        let (v2Body, v2Items) = upstreamItems(170, tag: "v2")
        let clock = TestClock()
        try await withTestUpstream({ _ in .json(version.withLock { $0 } == 1 ? v1Body : v2Body) }) { upstream in
            let yaml = clientYAML(
                upstream: upstream.baseURL,
                cache: "{ ttl: 10s, staleWhileRevalidate: 0s, staleIfError: 0s, snapshotRetention: 1m }")
            try await withClientGateway(yaml, now: clock.now) { objects, _ in
                let list = PagedList<Item>(endpoint: ListEndpoint(url: objects), pageSize: 20, prefetchMargin: 0)
                try await list.load()
                let pinned = try #require(list.snapshot)
                var changes = list.changes.makeAsyncIterator()
                let v1 = sortedByName(v1Items)
                for index in 0..<60 { #expect(try await element(list, at: index, changes: &changes) == v1[index]) }

                version.withLock { $0 = 2 }
                clock.advance(.seconds(11))  // past the ttl: the next unpinned request refills
                // Another client's unpinned request refills the route from the changed upstream.
                let other = PagedList<Item>(endpoint: ListEndpoint(url: objects), pageSize: 20)
                try await other.load()
                #expect(other.count == v2Items.count)
                #expect(other.snapshot != pinned)

                for index in 60..<120 { #expect(try await element(list, at: index, changes: &changes) == v1[index]) }
                #expect(list.count == v1Items.count)
                #expect(list.snapshot == pinned)

                clock.advance(.seconds(120))
                _ = try await PagedList<Item>(endpoint: ListEndpoint(url: objects), pageSize: 20).load()
                #expect(list[130] == nil)  // page 6, not loaded yet: its request answers 410
                var reset: Int?
                while reset == nil, let change = await changes.next() {
                    if case .reset(let count) = change { reset = count }
                    if case .pageFailed(let page, let error) = change { Issue.record("page \(page): \(error)") }
                }
                #expect(reset == v2Items.count)
                #expect(list.count == v2Items.count)
                #expect(list.snapshot != pinned)
                #expect(list.statistics.resets == 1)
                let v2 = sortedByName(v2Items)
                for index in [0, 19, 20, 169, 130] {
                    #expect(try await element(list, at: index, changes: &changes) == v2[index])
                }
            }
        }
    }

    /// URLSessionTransport really cancels: a request to a server that holds its answer for a
    /// minute ends with CancellationError as soon as the task is cancelled.
    @Test func cancellingTheTaskCancelsTheSessionRequest() async throws {
        try await withTestUpstream({ _ in
            try? await Task.sleep(for: .seconds(60))
            return .json("[]", headers: [("X-Total-Count", "0")])
        }) { upstream in
            let transport = URLSessionTransport()
            let request = URLRequest(url: URL(string: upstream.baseURL + "/slow")!)
            let task = Task { try await transport.send(request) }
            // Generous: the upstream answers on the cooperative pool, which a loaded machine delays.
            #expect(await eventually(timeout: .seconds(30)) { upstream.headCount == 1 })
            let started = ContinuousClock.now
            task.cancel()
            await #expect(throws: CancellationError.self) { _ = try await task.value }
            // Not a timing assertion on speed: only that it did not wait for the 60 s answer.
            #expect(ContinuousClock.now - started < .seconds(30))
        }
    }
}
