import Foundation
import Testing

@testable import FolioEngine

/// Walks whole lists by following the `next` links Folio writes, through the same parsing a client
/// request goes through, and checks the promises of docs/API.md, "The page", on what comes back.
@Suite struct PageWalkTests {
    struct Setup: CustomStringConvertible {
        var seed: UInt64
        var total: Int
        var requestedPageSize: Int
        var options: PagingOptions
        var pageStyle: Bool
        var permuted: Bool
        var description: String {
            "seed \(seed) total \(total) pageSize \(requestedPageSize) max \(options.maxPageSize) "
                + "base \(options.pageBase) names \(options.names) page style \(pageStyle) permuted \(permuted)"
        }
    }

    static let token = "k3J9xQ2bLm0aZ8Yt"

    /// Parameters links must keep as sent: repeated unknown ones, odd encodings, and the default
    /// `pageSize` name when the route renamed it (then it is just an unknown parameter).
    static func keptPrefix(_ names: ParameterNames) -> String {
        "x=%41+b&tag=1&tag=2&e=caf%C3%A9" + (names.pageSize == "pageSize" ? "" : "&pageSize=9")
    }

    @Test(arguments: [0, 1, 2, 3, 4, 5, 6, 7] as [UInt64])
    func walksEveryElementOnceInOrder(seedBase: UInt64) throws {
        var rng = SplitMix64(seed: 0xF0_11_00 + seedBase)
        for _ in 0..<40 {
            let setup = randomSetup(&rng)
            try walk(setup)
        }
    }

    @Test func walksSmallAndBoundarySizesInEveryStyle() throws {
        var seed: UInt64 = 1
        for pageSize in [1, 2, 3, 7, 25] {
            for total in Set([
                0, 1, pageSize - 1, pageSize, pageSize + 1, 2 * pageSize - 1, 2 * pageSize, 3 * pageSize + 1,
            ]) where total >= 0 {
                for pageStyle in [false, true] {
                    for base in [0, 1] {
                        seed += 1
                        let options = PagingOptions(defaultPageSize: 4, maxPageSize: 500, pageBase: base)
                        try walk(
                            Setup(
                                seed: seed, total: total, requestedPageSize: pageSize, options: options,
                                pageStyle: pageStyle, permuted: false))
                    }
                }
            }
        }
    }

    func randomSetup(_ rng: inout SplitMix64) -> Setup {
        let seed = rng.next()
        var local = SplitMix64(seed: seed)
        let pageSize = Int.random(in: 1...30, using: &local)
        let multiple = Int.random(in: 0...6, using: &local)
        let total = max(0, multiple * pageSize + Int.random(in: -1...1, using: &local))
        let renamed = Bool.random(using: &local)
        let names = renamed ? ParameterNames(pageSize: "limit", offset: "skip", page: "p") : ParameterNames()
        let options = PagingOptions(
            defaultPageSize: 10, maxPageSize: Bool.random(using: &local) ? 500 : 8, overMax: .clamp,
            names: names, pageBase: Int.random(in: 0...1, using: &local))
        return Setup(
            seed: seed, total: total, requestedPageSize: pageSize, options: options,
            pageStyle: Bool.random(using: &local), permuted: Bool.random(using: &local))
    }

    /// The reference: which list elements the view shows, in order.
    func expectedElements(_ list: ItemList, setup: Setup, rng: inout SplitMix64) -> (ListView, [[UInt8]]) {
        guard setup.permuted else { return (ListView(list: list), (0..<list.count).map(list.element)) }
        // A permutation over more elements than the view shows, viewed through a window.
        var order = (0..<list.count).map(UInt32.init)
        order.shuffle(using: &rng)
        let extra = Int.random(in: 0...3, using: &rng)
        let window = 0..<max(0, order.count - extra)
        let lower = window.isEmpty ? 0 : Int.random(in: 0...min(extra, window.count), using: &rng)
        let chosen = lower..<window.upperBound
        return (ListView(list: list, order: order, window: chosen), chosen.map { list.element(Int(order[$0])) })
    }

    func walk(_ setup: Setup) throws {
        var rng = SplitMix64(seed: setup.seed)
        let list = ListFactory.make(count: setup.total, using: &rng)
        let (view, expected) = expectedElements(list, setup: setup, rng: &rng)
        let names = setup.options.names
        let effective = min(setup.requestedPageSize, setup.options.maxPageSize)

        var query = Self.keptPrefix(names) + "&\(names.pageSize)=\(setup.requestedPageSize)"
        if setup.pageStyle { query += "&\(names.page)=\(setup.options.pageBase)" }
        var collected: [[UInt8]] = []
        var pageSizes: [Int] = []
        var visited = 0
        var lastLink: String?
        while true {
            visited += 1
            try #require(visited <= expected.count / effective + 2, "walk does not end: \(setup)")
            let page = try fetch(query: query, view: view, setup: setup)
            #expect(page.pageSize == effective, "\(setup)")
            collected += page.items
            pageSizes.append(page.items.count)
            if visited == 1 { lastLink = page.last }
            guard let next = page.next else { break }
            #expect(
                next.hasPrefix("/objects?" + Self.keptPrefix(names) + "&"),
                "links keep parameters verbatim: \(next) \(setup)")
            query = String(next.split(separator: "?", maxSplits: 1)[1])
        }

        #expect(collected == expected, "every element once, in order, byte-identical: \(setup)")
        #expect(
            pageSizes.dropLast().allSatisfy { $0 == effective }, "full pages before the last: \(pageSizes) \(setup)")
        if !expected.isEmpty {
            #expect((1...effective).contains(pageSizes.last!), "last page holds the rest: \(setup)")
        }
        #expect(visited == max(1, (expected.count + effective - 1) / effective), "\(setup)")

        // The `last` link of the first page leads to the page the walk ended on.
        let lastQuery = String(try #require(lastLink).split(separator: "?", maxSplits: 1)[1])
        let lastPage = try fetch(query: lastQuery, view: view, setup: setup)
        #expect(lastPage.items.count == pageSizes.last!, "\(setup)")
        #expect(lastPage.next == nil, "\(setup)")
    }

    struct FetchedPage {
        var pageSize: Int
        var items: [[UInt8]]
        var next: String?
        var last: String?
    }

    /// Does what the gateway will do for one request, then reads the answer like a client.
    func fetch(query: String, view: ListView, setup: Setup) throws -> FetchedPage {
        let parameters = try QueryString.parse(Substring(query))
        let request = try ListRequest.interpret(parameters, options: setup.options, rangeHeader: nil)
        #expect(request.style == (setup.pageStyle ? .page : .offset), "\(setup)")
        #expect(request.snapshot == nil || request.snapshot == Self.token)
        let paging = Paging(
            totalCount: view.count, offset: request.offset, pageSize: request.pageSize,
            pageBase: setup.options.pageBase)
        let links = LinkBuilder(
            base: "/objects", kept: request.kept, names: setup.options.names, style: request.style,
            pageSize: request.pageSize, pageBase: setup.options.pageBase, snapshot: Self.token)
        let body = PageWriter.envelope(view: view, paging: paging, links: links, itemsKey: "objects")

        // Structure, through a real JSON parser.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any], "\(setup)")
        #expect(Set(object.keys) == ["paging", "objects"], "\(setup)")
        let meta = try #require(object["paging"] as? [String: Any])
        #expect(meta["totalCount"] as? Int == view.count)
        #expect(meta["offset"] as? Int == request.offset)
        #expect(meta["pageSize"] as? Int == request.pageSize)
        #expect(meta["pageBase"] as? Int == setup.options.pageBase)
        #expect(meta["snapshot"] as? String == Self.token)
        let next = meta["next"] as? String
        #expect(meta["hasMore"] as? Bool == (next != nil), "\(setup)")
        #expect((object["objects"] as? [Any])?.count == paging.items.count, "\(setup)")

        // Items, byte for byte, found in the written bytes.
        let members = try RawJSON.members(body, objectAt: 0)
        #expect(members.map { String(decoding: $0.key, as: UTF8.self) } == ["paging", "objects"])
        let itemsRange = try #require(members.last).value
        let items = try RawJSON.elements(body, arrayAt: itemsRange.lowerBound).map { Array(body[$0]) }

        // The bare array of the same page holds the same bytes.
        let bare = PageWriter.bareArray(view: view, items: paging.items)
        #expect(bare == Array(body[itemsRange]), "\(setup)")

        // The metadata representation is the envelope without its items.
        let metadata = PageWriter.metadata(paging: paging, links: links)
        let metadataMembers = try RawJSON.members(metadata, objectAt: 0)
        #expect(metadataMembers.count == 1)
        #expect(Array(metadata[metadataMembers[0].value]) == Array(body[members[0].value]))

        return FetchedPage(pageSize: request.pageSize, items: items, next: next, last: meta["last"] as? String)
    }
}
