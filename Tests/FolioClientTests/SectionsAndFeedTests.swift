import FolioTestSupport
import Foundation
import Testing

@testable import FolioClient

/// Section jumps and the load-more feed against a real gateway.
@Suite struct SectionsAndFeedTests {
    @Test func sectionJumpsLandOnTheirFirstRow() async throws {
        let (body, items) = upstreamItems(300)
        let sorted = sortedByName(items)
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withClientGateway(clientYAML(upstream: upstream.baseURL)) { objects, _ in
                let list = PagedList<Item>(endpoint: ListEndpoint(url: objects), pageSize: 25, prefetchMargin: 0)
                try await list.load()
                let index = try await list.sections()

                // The reference: runs of equal first letters in the sorted list.
                var reference: [Section] = []
                for (offset, item) in sorted.enumerated() {
                    let title = String(item.name.prefix(1))
                    if reference.last?.title == title {
                        reference[reference.count - 1].count += 1
                    } else {
                        reference.append(Section(title: title, url: nil, count: 1, offset: offset))
                    }
                }
                #expect(
                    index.sections.map { [$0.title, "\($0.count)", "\($0.offset)"] }
                        == reference.map {
                            [$0.title, "\($0.count)", "\($0.offset)"]
                        })
                #expect(index.sections.allSatisfy { $0.url?.contains("snapshot=\(list.snapshot!)") == true })

                var changes = list.changes.makeAsyncIterator()
                for section in index.sections.reversed() {
                    let title = try #require(section.title)
                    let offset = try #require(index.offset(of: title))
                    list.setVisibleRange(offset..<offset + 10)
                    let first = try await element(list, at: offset, changes: &changes)
                    #expect(String(first.name.prefix(1)) == section.title)
                    if offset > 0 {
                        let before = try await element(list, at: offset - 1, changes: &changes)
                        #expect(String(before.name.prefix(1)) != section.title)
                    }
                    #expect(index.section(containing: offset) == section)
                    #expect(index.section(containing: offset + section.count - 1) == section)
                }
                #expect(index.section(containing: sorted.count) == nil)

                let byCategory = try await list.sections(.field("category"))
                #expect(byCategory.sections.map(\.title) == ["a", "b", "c"])
                #expect(
                    byCategory.sections.map(\.count) == ["a", "b", "c"].map { c in items.count { $0.category == c } })
            }
        }
    }

    /// Two triggers call `loadMore()` at once: one request, its items returned once (to the call
    /// that started it; the other gets `[]`), so `rows += loadMore()` holds each item once.
    @Test func overlappingLoadMoreCallsReturnEachItemOnce() async throws {
        let (body, items) = upstreamItems(45)
        let sorted = sortedByName(items)
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withClientGateway(clientYAML(upstream: upstream.baseURL)) { objects, requests in
                let gate = GateTransport()
                let feed = LoadMoreFeed<Item>(endpoint: ListEndpoint(url: objects, transport: gate), pageSize: 20)
                let first = Task { try await feed.loadMore() }
                #expect(await eventually { gate.held == 1 })
                let second = Task { try await feed.loadMore() }
                // The second call reaches the feed and joins the held request.
                var waited = 0
                while await feed.joined == 0, waited < 500 {
                    try await Task.sleep(for: .milliseconds(10))
                    waited += 1
                }
                #expect(await feed.joined == 1)
                gate.setOpen(true)
                let rows = try await first.value + second.value
                #expect(rows == Array(sorted.prefix(20)))
                #expect(await feed.items == rows)
                #expect(requests.count() == 1)
            }
        }
    }

    /// The answer of the third page is lost after Folio sent it; the retry asks the same page
    /// again and the feed ends with every item once, in order.
    @Test func loadMoreRetriesAFailedStepWithoutDuplicates() async throws {
        let (body, items) = upstreamItems(95)
        let sorted = sortedByName(items)
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withClientGateway(clientYAML(upstream: upstream.baseURL)) { objects, requests in
                let feed = LoadMoreFeed<Item>(
                    endpoint: ListEndpoint(url: objects, transport: FailOnceTransport(failing: 3)), pageSize: 20)
                var failures = 0
                var steps = 0
                while await feed.hasMore {
                    steps += 1
                    #expect(steps < 20)
                    do {
                        try await feed.loadMore()
                    } catch let error as ClientError {
                        #expect(error.code == .transport)
                        failures += 1
                    }
                }
                #expect(failures == 1)
                #expect(await feed.items == sorted)
                #expect(await feed.totalCount == items.count)
                #expect(try await feed.loadMore().isEmpty)
                // Five pages, the third one twice.
                #expect(requests.count() == 6)
            }
        }
    }
}
