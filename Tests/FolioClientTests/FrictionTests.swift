import FolioTestSupport
import Foundation
import Synchronization
import Testing

@testable import FolioClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What an app developer stumbled on (docs/CLIENT.md): reading without loading, several
/// observers, folded section titles, sections after expiry, telling network failures apart.
@Suite struct FrictionTests {
    @Test func peekAsksNothingAndElementAtWaitsForItsPage() async throws {
        let (body, items) = upstreamItems(120)
        let sorted = sortedByName(items)
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withClientGateway(clientYAML(upstream: upstream.baseURL)) { objects, requests in
                let list = PagedList<Item>(endpoint: ListEndpoint(url: objects), pageSize: 20, prefetchMargin: 0)
                try await list.load()
                #expect(list.peek(at: 3) == sorted[3])
                #expect(list.peek(at: 70) == nil)
                #expect(list.inFlight == 0 && list.statistics.started == 1)
                #expect(try await list.element(at: 70) == sorted[70])
                #expect(try await list.element(at: 119) == sorted[119])
                #expect(try await list.element(at: 120) == nil)
                #expect(requests.count() == 3)
            }
        }
    }

    @Test func elementAtThrowsTheFailureOfItsPage() async throws {
        let (body, _) = upstreamItems(120)
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withClientGateway(clientYAML(upstream: upstream.baseURL)) { objects, _ in
                let transport = FailingTransport(failing: { $0.url?.query?.contains("offset=60") == true })
                let list = PagedList<Item>(
                    endpoint: ListEndpoint(url: objects, transport: transport), pageSize: 20, prefetchMargin: 0)
                try await list.load()
                let error = await #expect(throws: ClientError.self) { try await list.element(at: 65) }
                #expect(error?.reason == .cannotConnect)
                transport.heal()
                #expect(try await list.element(at: 65) != nil)  // asked again, not left failed
            }
        }
    }

    @Test func everyObserverSeesEveryChange() async throws {
        let (body, _) = upstreamItems(120)
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withClientGateway(clientYAML(upstream: upstream.baseURL)) { objects, _ in
                let list = PagedList<Item>(endpoint: ListEndpoint(url: objects), pageSize: 20, prefetchMargin: 1)
                try await list.load()
                let seen = [Collected(), Collected()]
                let streams = [list.observe(), list.observe()]
                let readers = (0..<2).map { reader in
                    Task { for await change in streams[reader] { seen[reader].append(change) } }
                }
                defer { for reader in readers { reader.cancel() } }
                list.setVisibleRange(40..<50)  // pages 2, then 3 and 1
                #expect(await eventually { seen.allSatisfy { $0.all.count == 3 } })
                #expect(seen[0].all == seen[1].all)
                for loaded in [40..<60, 60..<80, 20..<40] { #expect(seen[0].all.contains(.pageLoaded(loaded))) }
            }
        }
    }

    @Test func aSectionIsFoundByAnySpellingOfItsTitle() {
        let index = SectionIndex(sections: [
            Section(title: "A", url: nil, count: 2, offset: 0), Section(title: "E", url: nil, count: 3, offset: 2),
            Section(title: "O", url: nil, count: 1, offset: 5), Section(title: "Й", url: nil, count: 1, offset: 6),
            Section(title: "#", url: nil, count: 2, offset: 7),
        ])
        for spelling in ["E", "e", "é", "É", "ë", "Eagle"] { #expect(index.offset(of: spelling) == 2, "\(spelling)") }
        for spelling in ["Ø", "œ", "o"] { #expect(index.offset(of: spelling) == 5, "\(spelling)") }
        #expect(index.offset(of: "й") == 6)
        #expect(index.offset(of: "и") == nil)
        for spelling in ["#", "1", "_x", "😀", "ǝ"] { #expect(index.offset(of: spelling) == 7, "\(spelling)") }
        #expect(index.offset(of: "æ") == 0)
        #expect(index.offset(of: "B") == nil)
    }

    /// The list's snapshot expired: `sections()` resets the list as a page's 410 would and
    /// answers from the new snapshot, so the offsets match the rows it now shows.
    @Test func sectionsAfterExpiryFollowTheReset() async throws {
        let version = Mutex(1)
        let (v1Body, _) = upstreamItems(150, tag: "v1")
        let (v2Body, v2Items) = upstreamItems(170, tag: "v2")
        let clock = TestClock()
        try await withTestUpstream({ _ in .json(version.withLock { $0 } == 1 ? v1Body : v2Body) }) { upstream in
            let yaml = clientYAML(
                upstream: upstream.baseURL,
                cache: "{ ttl: 10s, staleWhileRevalidate: 0s, staleIfError: 0s, snapshotRetention: 1m }")
            try await withClientGateway(yaml, now: clock.now) { objects, _ in
                let list = PagedList<Item>(endpoint: ListEndpoint(url: objects), pageSize: 20, prefetchMargin: 0)
                try await list.load()
                let pinned = list.snapshot
                version.withLock { $0 = 2 }
                clock.advance(.seconds(11))
                _ = try await PagedList<Item>(endpoint: ListEndpoint(url: objects), pageSize: 20).load()
                clock.advance(.seconds(120))
                let index = try await list.sections()
                #expect(list.snapshot != pinned && list.count == v2Items.count)
                #expect(list.statistics.resets == 1)
                #expect(index.sections.map(\.count).reduce(0, +) == v2Items.count)
                let sorted = sortedByName(v2Items)
                for section in index.sections {
                    let first = try #require(try await list.element(at: section.offset))
                    #expect(SectionIndex.title(of: first.name) == section.title)
                    #expect(first == sorted[section.offset])
                }
            }
        }
    }

    /// A refused connection is `cannotConnect`; no network and a timeout are told apart too.
    @Test func transportFailuresSayWhy() async throws {
        let upstream = try await TestUpstream.start { _ in .json("[]") }
        let port = upstream.port
        await upstream.stop()  // the port now refuses connections
        let list = PagedList<Item>(endpoint: ListEndpoint(url: URL(string: "http://127.0.0.1:\(port)/objects")!))
        let error = await #expect(throws: ClientError.self) { try await list.load() }
        #expect(error?.code == .transport && error?.reason == .cannotConnect)
        #expect(list.statistics == PagedListStatistics(started: 1, failed: 1))
        #expect(ClientError.transport(URLError(.notConnectedToInternet)).reason == .offline)
        #expect(ClientError.transport(URLError(.timedOut)).reason == .timedOut)
        #expect(ClientError.transport(URLError(.networkConnectionLost)).reason == .connectionLost)
        #expect(ClientError.status(404, body: Data(), first: nil).reason == nil)
    }

    @Test func theFeedShowsItsSnapshot() async throws {
        let (body, _) = upstreamItems(60)
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withClientGateway(clientYAML(upstream: upstream.baseURL)) { objects, _ in
                let feed = LoadMoreFeed<Item>(endpoint: ListEndpoint(url: objects), pageSize: 20)
                #expect(await feed.snapshot == nil)
                try await feed.loadMore()
                let snapshot = try #require(await feed.snapshot)
                let index = try await ListEndpoint(url: objects).sections(snapshot: snapshot)
                #expect(index.sections.map(\.count).reduce(0, +) == 60)
            }
        }
    }
}

/// Changes one reader collected.
final class Collected: Sendable {
    private let changes = Mutex<[PagedListChange]>([])

    func append(_ change: PagedListChange) { changes.withLock { $0.append(change) } }

    var all: [PagedListChange] { changes.withLock { $0 } }
}
