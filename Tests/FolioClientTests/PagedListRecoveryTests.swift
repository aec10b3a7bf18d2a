import FolioTestSupport
import Foundation
import Synchronization
import Testing

@testable import FolioClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the paged list does when things go other than planned: a reload, a failing page, a
/// route that serves smaller pages than asked (docs/CLIENT.md), against a real gateway.
@Suite struct PagedListRecoveryTests {
    /// `load()` again (pull to refresh) starts over from the current snapshot: an answer of the
    /// old snapshot still on its way is dropped, not stored beside the new rows.
    @Test func aReloadStartsOverAndDropsTheOldSnapshotsAnswers() async throws {
        let version = Mutex(1)
        let (v1Body, _) = upstreamItems(150, tag: "v1")
        let (v2Body, v2Items) = upstreamItems(170, tag: "v2")
        let clock = TestClock()
        try await withTestUpstream({ _ in .json(version.withLock { $0 } == 1 ? v1Body : v2Body) }) { upstream in
            let yaml = clientYAML(upstream: upstream.baseURL, cache: "{ ttl: 10s, staleWhileRevalidate: 0s }")
            try await withClientGateway(yaml, now: clock.now) { objects, _ in
                // Page 2's requests wait at the gate until the test opens it.
                let gate = GateTransport(holds: { $0.url?.query?.contains("offset=40") == true })
                let list = PagedList<Item>(
                    endpoint: ListEndpoint(url: objects, transport: gate), pageSize: 20, prefetchMargin: 0)
                try await list.load()
                let pinned = list.snapshot
                list.setVisibleRange(40..<50)
                #expect(await eventually { gate.held == 1 })

                version.withLock { $0 = 2 }
                clock.advance(.seconds(11))
                let log = ChangeLog.of(list)
                defer { log.stop() }
                try await list.load()
                #expect(await eventually { log.all.contains(.reset(count: v2Items.count)) }, "\(log.all)")
                #expect(list.count == v2Items.count && list.snapshot != pinned)
                // The old request was cancelled, reported before the reset and counted.
                #expect(log.all.prefix(2) == [.pageCancelled(page: 2), .reset(count: v2Items.count)], "\(log.all)")
                #expect(list.statistics.cancelled == 1)
                #expect(list.statistics.resets == 1, "a reload's reset is counted as a 410's is")
                // Opening the gate lets the new one through.
                gate.setOpen(true)
                let v2 = sortedByName(v2Items)
                for index in [45, 0, 169] {
                    #expect(await eventually { list[index] != nil })
                    #expect(list[index] == v2[index])
                }
                #expect(list.statistics.loaded == 2 + 1 + 1)  // two first pages, pages 2 and 8
                #expect(gate.passed == 1, "only the new snapshot's page 2 went out")
            }
        }
    }

    /// A failed page is reported once and not asked again by every redraw that touches its
    /// rows; `retryFailedPages()` asks it again, and so does scrolling back to it.
    @Test func aFailedPageWaitsForARetry() async throws {
        let (body, items) = upstreamItems(100)
        let sorted = sortedByName(items)
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withClientGateway(clientYAML(upstream: upstream.baseURL)) { objects, _ in
                let transport = FailingTransport(failing: { $0.url?.query?.contains("offset=20") == true })
                let list = PagedList<Item>(
                    endpoint: ListEndpoint(url: objects, transport: transport), pageSize: 20, prefetchMargin: 0)
                try await list.load()
                let log = ChangeLog.of(list)
                defer { log.stop() }
                @Sendable func failures() -> Int {
                    log.all.filter { if case .pageFailed(page: 1, _) = $0 { true } else { false } }.count
                }
                list.setVisibleRange(20..<30)
                #expect(await eventually { failures() == 1 })
                // Redraws touch the failed rows and report the same range: nothing is asked.
                for _ in 0..<5 {
                    for index in 20..<30 { #expect(list[index] == nil) }
                    list.setVisibleRange(20..<30)
                }
                #expect(list.inFlight == 0)
                try await Task.sleep(for: .milliseconds(200))
                #expect(transport.sent(containing: "offset=20") == 1)
                #expect(failures() == 1)

                // An explicit retry asks again (and fails again while the server does).
                list.retryFailedPages()
                #expect(await eventually { failures() == 2 })
                #expect(transport.sent(containing: "offset=20") == 2)

                // Scrolled away and back: asked again, and now it loads.
                transport.heal()
                list.setVisibleRange(60..<70)
                list.setVisibleRange(20..<30)
                #expect(await eventually { list[25] != nil })
                #expect(list[25] == sorted[25])
                #expect(transport.sent(containing: "offset=20") == 3)
            }
        }
    }

    /// The snapshot expired: a page's 410 starts the reset, whose first page fails (the network
    /// drops it). The list stays as it was and asks nothing more, however often its rows are
    /// touched (each would 410 and fail the reset again), until `retryFailedPages()`.
    @Test func aFailedResetWaitsForARetry() async throws {
        let version = Mutex(1)
        let (v1Body, v1Items) = upstreamItems(150, tag: "v1")
        let (v2Body, v2Items) = upstreamItems(170, tag: "v2")
        let clock = TestClock()
        let firstPagesFail = Mutex(false)
        try await withTestUpstream({ _ in .json(version.withLock { $0 } == 1 ? v1Body : v2Body) }) { upstream in
            let yaml = clientYAML(
                upstream: upstream.baseURL,
                cache: "{ ttl: 10s, staleWhileRevalidate: 0s, staleIfError: 0s, snapshotRetention: 1m }")
            try await withClientGateway(yaml, now: clock.now) { objects, _ in
                let transport = FailingTransport(failing: { request in
                    firstPagesFail.withLock { $0 } && request.url?.query?.contains("offset=0") == true
                })
                let list = PagedList<Item>(
                    endpoint: ListEndpoint(url: objects, transport: transport), pageSize: 20, prefetchMargin: 0)
                try await list.load()
                let log = ChangeLog.of(list)
                defer { log.stop() }
                // Another client refills the route; then the first snapshot expires.
                version.withLock { $0 = 2 }
                clock.advance(.seconds(11))
                _ = try await PagedList<Item>(endpoint: ListEndpoint(url: objects), pageSize: 20).load()
                clock.advance(.seconds(120))
                firstPagesFail.withLock { $0 = true }

                #expect(list[130] == nil)  // page 6: 410, then the reset's first page fails
                #expect(
                    await eventually {
                        log.all.contains { if case .pageFailed(page: 0, _) = $0 { true } else { false } }
                    }
                )
                let asked = transport.total
                for _ in 0..<5 {
                    for index in 120..<140 { #expect(list[index] == nil) }
                    list.setVisibleRange(120..<140)
                }
                #expect(list.inFlight == 0)
                try await Task.sleep(for: .milliseconds(200))
                #expect(transport.total == asked, "nothing asked while the reset waits")
                #expect(list.count == v1Items.count && list.statistics.resets == 0)

                firstPagesFail.withLock { $0 = false }
                list.retryFailedPages()
                #expect(await eventually { log.all.contains(.reset(count: v2Items.count)) }, "\(log.all)")
                #expect(await eventually { list[130] != nil })
                #expect(list[130] == sortedByName(v2Items)[130])
            }
        }
    }

    /// A route whose `maxPageSize` is below the list's page size clamps the first page: the list
    /// takes the size served, so every row lands where it belongs, in every dialect (HAL asks by
    /// page number, the others by offset).
    @Test(arguments: Dialect.allCases) func aClampedPageSizeIsTakenFromTheFirstPage(_ dialect: Dialect) async throws {
        let (body, items) = upstreamItems(53)
        let sorted = sortedByName(items)
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            let yaml = clientYAML(upstream: upstream.baseURL, dialect: dialect.rawValue, maxPageSize: 10)
            try await withClientGateway(yaml) { objects, requests in
                let list = PagedList<Item>(
                    endpoint: ListEndpoint(url: objects, dialect: dialect), pageSize: 25, prefetchMargin: 0)
                try await list.load()
                #expect(list.pageSize == 10 && list.requestedPageSize == 25)
                var seen: [Item] = []
                for index in 0..<list.count {
                    guard await eventually({ list[index] != nil }), let item = list[index] else {
                        Issue.record("row \(index) never arrived")
                        break
                    }
                    seen.append(item)
                }
                #expect(seen == sorted)
                #expect(requests.count() == 6)
            }
        }
    }
}

/// A list's changes, collected in the background (its one consumer), for waits with a timeout:
/// a change that never comes fails the wait instead of hanging the test.
final class ChangeLog: Sendable {
    private let seen = Mutex<[PagedListChange]>([])
    private let task = Mutex<Task<Void, Never>?>(nil)

    static func of<E>(_ list: PagedList<E>) -> ChangeLog {
        let log = ChangeLog()
        let task = Task { for await change in list.changes { log.seen.withLock { $0.append(change) } } }
        log.task.withLock { $0 = task }
        return log
    }

    var all: [PagedListChange] { seen.withLock { $0 } }

    func stop() { task.withLock { $0?.cancel() } }
}
