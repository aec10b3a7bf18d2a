import Testing

@testable import FolioEngine

/// Tokens of lists large enough that the indexer hashes on another thread while it scans
/// (more than 32 KiB pending per chunk, with `scanStaged(background: true)`, or fed in batches through an
/// `IndexerBox` as a fill feeds them), checked against the reference computation over the
/// elements the test itself generated, and against hashing in line.
@Suite struct ListIndexerLargeTokenTests {
    /// About 2 MB of elements of 20 to 200 bytes, a few of 20 KB (hashed from the store rather
    /// than gathered), in one of three layouts.
    static func elements(_ rng: inout SplitMix64) -> [[UInt8]] {
        (0..<12_000).map { index in
            let padding = rng.chance(1) ? 20_000 : rng.below(180)
            return Array(#"{"id":\#(index),"text":"\#(String(repeating: "x", count: padding))"}"#.utf8)
        }
    }

    enum Layout: CaseIterable { case compact, pretty, mixed }

    /// How the chunks reach the indexer.
    enum Feeding: CaseIterable { case inline, overlapped, batched }

    /// Feeds `body` into `indexer` as `feeding` says, ending the body.
    static func index(
        _ body: [UInt8], into indexer: inout ListIndexer, _ feeding: Feeding, chunkLengths: [Int]
    ) async throws {
        switch feeding {
        case .inline:
            try feed(&indexer, body, chunkLengths: chunkLengths)
        case .overlapped:
            try await feedOverlapped(&indexer, body, chunkLengths: chunkLengths)
        case .batched:
            let box = IndexerBox(indexer)
            indexer = ListIndexer(items: .root, limits: IndexLimits(maxBytes: 0), sort: [])
            try await feedBatched(box, body, chunkLengths: chunkLengths)
            indexer = box.indexerForTesting
        }
        _ = try indexer.endBody()
    }

    static func body(_ elements: [[UInt8]], layout: Layout, _ rng: inout SplitMix64) -> [UInt8] {
        var body: [UInt8] = Array("[".utf8)
        for (index, element) in elements.enumerated() {
            if index > 0 { body += Array(",".utf8) }
            let spaced = layout == .pretty || (layout == .mixed && rng.chance(5))
            if spaced { body += Array("\n  ".utf8) }
            body += element
        }
        body += Array("\n]\n".utf8)
        return body
    }

    @Test(arguments: Layout.allCases, Feeding.allCases)
    func largeBodiesGiveTheReferenceToken(layout: Layout, feeding: Feeding) async throws {
        var rng = SplitMix64(seed: 0x70CE_0000 + UInt64(Layout.allCases.firstIndex(of: layout)!))
        let elements = Self.elements(&rng)
        let body = Self.body(elements, layout: layout, &rng)
        let expected = SnapshotToken.compute(sort: ["name"], elements: elements)
        for chunkLengths in [[64 << 10], [4096], [1 << 20], [99_991, 7, 50_000], [Int.max]] {
            var indexer = ListIndexer(items: .root, limits: IndexLimits(), sort: ["name"])
            try await Self.index(body, into: &indexer, feeding, chunkLengths: chunkLengths)
            let result = try indexer.finish()
            #expect(result.token == expected, "\(layout) in chunks of \(chunkLengths)")
            #expect(result.list.count == elements.count)
        }
    }

    /// The overlapped path really hands work to the queue (or the tests above would not test it).
    @Test func aLargeChunkLeavesAPassToSettle() async throws {
        var rng = SplitMix64(seed: 0x5E77)
        let body = Self.body(Self.elements(&rng), layout: .compact, &rng)
        var indexer = ListIndexer(items: .root, limits: IndexLimits(), sort: [])
        let half = body.count / 2
        try appendOverlapped(&indexer, Array(body[..<half]))
        #expect(indexer.hashing == nil, "the first chunk has nothing earlier to hash")
        await indexer.settle()
        try appendOverlapped(&indexer, Array(body[half...]))
        #expect(indexer.hashing != nil)
        await indexer.settle()
        #expect(indexer.hashing == nil)
        _ = try indexer.endBody()
        #expect(try indexer.finish().token == (try indexOne(body).token))
    }

    @Test(arguments: Feeding.allCases)
    func crawledBodiesGiveTheTokenOfAllTheirElements(feeding: Feeding) async throws {
        var rng = SplitMix64(seed: 0xC4A7)
        let pages = (0..<3).map { _ in Self.elements(&rng) }
        var indexer = ListIndexer(items: .root, limits: IndexLimits(), sort: [])
        for page in pages {
            let body = Self.body(page, layout: .mixed, &rng)
            try await Self.index(body, into: &indexer, feeding, chunkLengths: [65_536])
        }
        let (list, token) = try indexer.finish()
        #expect(token == SnapshotToken.compute(sort: [], elements: pages.flatMap { $0 }))
        #expect(list.count == pages.map(\.count).reduce(0, +))
    }

    /// A copy taken between chunks continues on its own: the two indexers never share a pass.
    @Test func aCopiedIndexerHashesOnItsOwn() throws {
        var rng = SplitMix64(seed: 0xC0B1)
        let elements = Self.elements(&rng)
        let body = Self.body(elements, layout: .compact, &rng)
        let half = body.count / 2
        var first = ListIndexer(items: .root, limits: IndexLimits(), sort: [])
        try feed(&first, Array(body[..<half]), chunkLengths: [65_536])
        var second = first
        try feed(&first, Array(body[half...]), chunkLengths: [65_536])
        try feed(&second, Array(body[half...]), chunkLengths: [30_000])
        let expected = SnapshotToken.compute(sort: [], elements: elements)
        #expect(try first.finish().token == expected)
        #expect(try second.finish().token == expected)
    }
}
