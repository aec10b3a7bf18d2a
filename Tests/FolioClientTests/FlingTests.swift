import FolioTestSupport
import Foundation
import Synchronization
import Testing

@testable import FolioClient

/// Flings as a phone makes them (docs/CLIENT.md, "Flings"): through a real TCP proxy that adds
/// a mobile round trip between the client and a real gateway, with frames at display rate.
@Suite struct FlingTests {
    /// Three fast flings (100 rows a frame, 16 ms frames) each ending in a rest, then a slow
    /// scroll: what reaches Folio is at most the pages shown at rest and during the slow scroll
    /// plus their prefetch margin, and no visible row stays a placeholder once the list rests.
    @Test(arguments: [80, 300]) func flingsThroughMobileLatencyAskOnlyForPagesShown(roundTrip: Int) async throws {
        let (body, items) = upstreamItems(5000)
        let expected = sortedByName(items)
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withClientGateway(clientYAML(upstream: upstream.baseURL)) { objects, requests in
                let gatewayPort = try #require(objects.port)
                try await withLatencyProxy(to: gatewayPort, roundTrip: .milliseconds(roundTrip)) { proxy in
                    let url = try #require(URL(string: proxy.baseURL + "/objects"))
                    // A settle delay above a loaded test machine's frame hiccups (the default is 100 ms).
                    let list = PagedList<Item>(
                        endpoint: ListEndpoint(url: url), pageSize: 20, prefetchMargin: 1,
                        settleDelay: .milliseconds(300))
                    try await list.load()
                    var top = 0
                    func show(_ visible: Range<Int>) {
                        list.setVisibleRange(visible)
                        for index in visible { _ = list[index] }  // the cells ask for their rows
                    }
                    // The list appears: its first rows and their margin are asked at once.
                    show(0..<10)
                    let opening = list.window(for: 0..<10, count: list.count, pageSize: list.pageSize)
                    var allowed = Set(opening)
                    #expect(await eventually(timeout: .seconds(20)) { opening.allSatisfy(list.hasPage) })
                    for _ in 0..<3 {
                        for _ in 0..<12 {
                            top += 100
                            show(top..<top + 10)
                            try await Task.sleep(for: .milliseconds(16))
                        }
                        // The finger is off: no more frames; the list must settle by itself.
                        let visible = top..<top + 10
                        allowed.formUnion(list.window(for: visible, count: list.count, pageSize: list.pageSize))
                        #expect(
                            await eventually(timeout: .seconds(20)) { visible.allSatisfy { list.peek(at: $0) != nil } },
                            "rows \(visible) still placeholders after settling")
                        for index in visible { #expect(list.peek(at: index) == expected[index]) }
                    }
                    // A slow scroll, one row every 60 ms: pages are asked while it moves.
                    let loadedBefore = list.statistics.loaded
                    for _ in 0..<50 {
                        top += 1
                        show(top..<top + 10)
                        allowed.formUnion(list.window(for: top..<top + 10, count: list.count, pageSize: list.pageSize))
                        try await Task.sleep(for: .milliseconds(60))
                    }
                    #expect(list.statistics.loaded > loadedBefore, "nothing loaded during a slow scroll")
                    let last = top..<top + 10
                    #expect(await eventually(timeout: .seconds(20)) { last.allSatisfy { list.peek(at: $0) != nil } })
                    // Requests already sent when cancelled still arrive: wait them out before counting.
                    try await Task.sleep(for: .milliseconds(roundTrip * 3))
                    let reached = requests.count()
                    #expect(
                        reached <= allowed.count,
                        "\(reached) requests reached Folio, \(allowed.count) pages shown + margin")
                    #expect(list.statistics.failed == 0)
                    print(
                        "fling at \(roundTrip) ms: \(reached) requests reached Folio for \(allowed.count) pages shown + margin; \(list.statistics)"
                    )
                }
            }
        }
    }

    /// A cancelled page keeps its slot of `maxConcurrentLoads` until its request has ended: the
    /// next page waits rather than piling a request onto one the network is still carrying.
    @Test func aCancelledLoadKeepsItsSlotUntilItsRequestEnds() async throws {
        let (body, items) = upstreamItems(200)
        let expected = sortedByName(items)
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withClientGateway(clientYAML(upstream: upstream.baseURL)) { objects, _ in
                let transport = StubbornTransport(holds: { $0.url?.query?.contains("offset=0") == false })
                let list = PagedList<Item>(
                    endpoint: ListEndpoint(url: objects, transport: transport), pageSize: 20, prefetchMargin: 0,
                    maxConcurrentLoads: 1)
                try await list.load()
                list.setVisibleRange(40..<50)
                #expect(await eventually { transport.waiting == 1 })
                list.setVisibleRange(100..<110)
                list.setVisibleRange(100..<110)  // settled: page 5 is wanted at once
                #expect(list.statistics.cancelled == 1)
                try await Task.sleep(for: .milliseconds(100))
                #expect(transport.waiting == 1, "page 5 must wait for page 2's request to end")
                #expect(list.statistics.started == 2)
                transport.releaseOne()  // page 2's request ends (cancelled)
                #expect(await eventually { transport.waiting == 1 && list.statistics.started == 3 })
                transport.releaseOne()
                #expect(await eventually { list.peek(at: 105) != nil })
                #expect(list.peek(at: 105) == expected[105])
                #expect(list.peek(at: 45) == nil)
            }
        }
    }
}
