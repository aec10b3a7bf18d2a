import Testing

@testable import FolioEngine

/// Random valid lists fed at random chunk boundaries must come back byte for byte.
@Suite struct ListIndexerRandomTests {
    /// Where the generated list sits in its body.
    enum Placement: CaseIterable {
        case root, nested, slashKey, indexed, tildeKey

        var pointer: String {
            switch self {
            case .root: ""
            case .nested: "/data/items"
            case .slashKey: "/a~1b"
            case .indexed: "/results/1"
            case .tildeKey: "/k~0ey"
            }
        }
    }

    /// Wraps `list` (an array's bytes) at `placement`, with decoys the pointer must not pick:
    /// similar keys, other arrays, and a later duplicate key (the first occurrence wins).
    static func wrap(_ list: [UInt8], _ placement: Placement, _ gen: inout RandomJSON) -> [UInt8] {
        func key(_ text: String) -> [UInt8] { Array("\"\(text)\"".utf8) }
        switch placement {
        case .root:
            return list
        case .nested:
            let data = gen.members([
                (key("item"), gen.array(2, depth: 1)), (key("items"), list),
                (key("items"), gen.array(2, depth: 1)), (key("x"), gen.value(depth: 2)),
            ])
            return gen.members([
                (key("meta"), gen.value(depth: 2)), (key("dat"), gen.array(2, depth: 1)),
                (key("data"), data), (key("data"), gen.array(1, depth: 1)),
            ])
        case .slashKey:
            let spelling = gen.rng.pick([#""a/b""#, #""a\/b""#, #""\u0061/b""#, #""a\u002fb""#])
            return gen.members([
                (key("a"), gen.array(1, depth: 1)), (key("a~1b"), gen.array(1, depth: 1)),
                (Array(spelling.utf8), list),
            ])
        case .indexed:
            let results = gen.array(of: [gen.array(2, depth: 1), list, gen.array(3, depth: 1)])
            return gen.members([(key("results"), results)])
        case .tildeKey:
            return gen.members([(key("k~0ey"), gen.array(1, depth: 0)), (key("k~ey"), list)])
        }
    }

    @Test(arguments: [0, 1, 2, 3, 5, 40, 300])
    func randomListsRoundTrip(count: Int) throws {
        for round in 0..<40 {
            let seed = UInt64(count) << 32 | UInt64(round)
            var gen = RandomJSON(seed: seed)
            gen.whitespacePercent = gen.rng.pick([0, 30, 80])
            let elements = gen.elements(count)
            let placement = Placement.allCases[gen.rng.below(Placement.allCases.count)]
            let document = gen.body(Self.wrap(gen.array(of: elements), placement, &gen))
            let sort = gen.rng.pick([[], ["name"], ["-price", "na\"me\n"]])
            let chunks = randomChunkLengths(&gen.rng, documentLength: document.count)
            let result = try indexOne(document, items: JSONPointer(placement.pointer), sort: sort, chunkLengths: chunks)
            let context = Comment(rawValue: "seed \(seed), chunks \(chunks), document \(show(document))")
            #expect(result.list.count == count, context)
            #expect(result.body.itemCount == count, context)
            #expect(result.list.elements == elements, context)
            #expect(result.token == SnapshotToken.compute(sort: sort, elements: elements), context)
        }
    }

    @Test func everySplitPointOfSmallDocuments() throws {
        for seed in UInt64(1000)..<UInt64(1060) {
            var gen = RandomJSON(seed: seed)
            gen.whitespacePercent = 40
            let elements = gen.elements(1 + gen.rng.below(3))
            let placement = Placement.allCases[gen.rng.below(Placement.allCases.count)]
            let document = gen.body(Self.wrap(gen.array(of: elements), placement, &gen))
            let expectedToken = SnapshotToken.compute(sort: [], elements: elements)
            for split in 1..<document.count {
                let result = try indexOne(
                    document, items: JSONPointer(placement.pointer),
                    chunkLengths: [split, document.count])
                let context = Comment(rawValue: "seed \(seed), split \(split), document \(show(document))")
                #expect(result.list.elements == elements, context)
                #expect(result.token == expectedToken, context)
            }
        }
    }

    @Test func oneByteChunks() throws {
        for seed in UInt64(2000)..<UInt64(2020) {
            var gen = RandomJSON(seed: seed)
            let elements = gen.elements(20)
            let document = gen.body(gen.array(of: elements))
            let result = try indexOne(document, chunkLengths: [1])
            #expect(result.list.elements == elements, "seed \(seed)")
            #expect(result.token == SnapshotToken.compute(sort: [], elements: elements), "seed \(seed)")
        }
    }

    /// A crawl: several bodies into one indexer give one list, hashed as if it were one body.
    @Test func crawlConcatenatesBodies() throws {
        for seed in UInt64(3000)..<UInt64(3030) {
            var gen = RandomJSON(seed: seed)
            let next = try JSONPointer("/next")
            let total = try JSONPointer("/total")
            var indexer = ListIndexer(
                items: try JSONPointer("/data"), limits: IndexLimits(), sort: ["id"],
                captures: [next, total])
            var all: [[UInt8]] = []
            let pages = 1 + gen.rng.below(5)
            for page in 0..<pages {
                let elements = gen.elements(gen.rng.below(6))
                all += elements
                let nextValue = Array((page + 1 < pages ? "\"http://x/p\(page + 2)\"" : "null").utf8)
                var members: [([UInt8], [UInt8])] = [(Array(#""data""#.utf8), gen.array(of: elements))]
                members.insert((Array(#""next""#.utf8), nextValue), at: gen.rng.below(2))
                if page == 0 { members.append((Array(#""total""#.utf8), Array("1337".utf8))) }
                let document = gen.body(gen.members(members))
                if gen.rng.chance(50) { indexer.reserve(additionalBytes: document.count) }
                try feed(&indexer, document, chunkLengths: randomChunkLengths(&gen.rng, documentLength: document.count))
                let body = try indexer.endBody()
                #expect(body.itemCount == elements.count, "seed \(seed) page \(page)")
                #expect(body.captures[next] == nextValue, "seed \(seed) page \(page)")
                #expect(body.captures[total] == (page == 0 ? Array("1337".utf8) : nil), "seed \(seed) page \(page)")
            }
            let (list, token) = try indexer.finish()
            #expect(list.elements == all, "seed \(seed)")
            #expect(token == SnapshotToken.compute(sort: ["id"], elements: all), "seed \(seed)")
        }
    }
}
