import Testing

@testable import FolioEngine

/// With the body's length announced (`reserve`), `starts` and `ends` are reserved for the whole
/// list once `rangeSample` elements show the average element size, so they neither grow by
/// copying nor need a trimming copy at `finish`; without it, or with a bad estimate, they grow
/// and are trimmed as before.
@Suite struct ListIndexerRangeReserveTests {
    /// `count` objects numbered from `first`, each with a string of `padding` bytes.
    static func elements(_ count: Int, from first: Int = 0, padding: Int) -> [[UInt8]] {
        (first..<first + count).map { Array("{\"id\":\($0),\"s\":\"\(String(repeating: "x", count: padding))\"}".utf8) }
    }

    static func list(_ elements: [[UInt8]]) -> [UInt8] {
        Array("[".utf8) + elements.joined(separator: Array(",".utf8)) + Array("]".utf8)
    }

    @Test func rangesAreReservedFromTheFirstElements() throws {
        let elements = Self.elements(30_000, padding: 40)
        let document = Self.list(elements)
        var indexer = ListIndexer(items: .root, limits: IndexLimits(), sort: [])
        indexer.reserve(additionalBytes: document.count)
        let chunk = 64 << 10
        try feed(&indexer, Array(document[..<chunk]), chunkLengths: [chunk])
        #expect(indexer.starts.count >= ListIndexer.rangeSample)
        #expect(indexer.starts.capacity >= elements.count && indexer.ends.capacity >= elements.count)
        #expect(indexer.starts.capacity <= elements.count + elements.count / 8)
        try feed(&indexer, Array(document[chunk...]), chunkLengths: [chunk])
        _ = try indexer.endBody()
        let (list, token) = try indexer.finish()
        #expect(list.elements == elements)
        #expect(token == SnapshotToken.compute(sort: [], elements: elements))
        #expect(list.starts.capacity - list.count <= list.count / 8)
    }

    @Test func unannouncedBodiesGrowTheirRanges() throws {
        let elements = Self.elements(30_000, padding: 40)
        let document = Self.list(elements)
        var indexer = ListIndexer(items: .root, limits: IndexLimits(), sort: [])
        try feed(&indexer, Array(document[..<(64 << 10)]), chunkLengths: [64 << 10])
        #expect(indexer.starts.capacity < elements.count)
    }

    /// Large elements first, then small ones: the estimate falls short, the ranges double, and
    /// `finish` trims the slack.
    @Test func aShortEstimateStillEndsTrimmed() throws {
        let elements =
            Self.elements(1_000, padding: 400) + Self.elements(40_000, from: 1_000, padding: 0)
        let document = Self.list(elements)
        var indexer = ListIndexer(items: .root, limits: IndexLimits(), sort: [])
        indexer.reserve(additionalBytes: document.count)
        try feed(&indexer, document, chunkLengths: [64 << 10])
        _ = try indexer.endBody()
        let (list, _) = try indexer.finish()
        #expect(list.elements == elements)
        #expect(list.starts.capacity - list.count <= max(256, list.count / 8))
        #expect(list.ends.capacity - list.count <= max(256, list.count / 8))
    }

    @Test func theReservationStopsAtMaxItems() throws {
        let document = Self.list(Self.elements(30_000, padding: 40))
        var indexer = ListIndexer(items: .root, limits: IndexLimits(maxItems: 1_000), sort: [])
        indexer.reserve(additionalBytes: document.count)
        // About 700 elements: enough to estimate, not yet too many.
        let chunk = 40 << 10
        try feed(&indexer, Array(document[..<chunk]), chunkLengths: [chunk])
        #expect(indexer.starts.count >= ListIndexer.rangeSample)
        #expect(indexer.starts.capacity < 2_000)
        #expect(throws: FolioError.self) { try feed(&indexer, Array(document[chunk...]), chunkLengths: [chunk]) }
    }
}
