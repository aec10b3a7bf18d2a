import Testing

@testable import FolioEngine

/// `maxJSONDepth`, `maxItems` and `maxUpstreamBytes` (SECURITY.md, "Limits"), exactly at and just
/// over the limit.
@Suite struct ListIndexerLimitsTests {
    static func nested(_ depth: Int) -> [UInt8] {
        [UInt8](repeating: UInt8(ascii: "["), count: depth) + [UInt8](repeating: UInt8(ascii: "]"), count: depth)
    }

    @Test(arguments: [1, 2, 5, 128])
    func depthExactlyAtTheLimitIsAccepted(limit: Int) throws {
        let result = try indexOne(Self.nested(limit), limits: IndexLimits(maxDepth: limit), chunkLengths: [3])
        #expect(result.list.count == (limit > 1 ? 1 : 0))
        let objects = Array(#"[{"a":{"b":[{}]}}]"#.utf8)  // depth 5
        #expect(throws: Never.self) { try indexOne(objects, limits: IndexLimits(maxDepth: 5)) }
    }

    @Test(arguments: [1, 2, 5, 128])
    func depthOverTheLimitIsRejected(limit: Int) {
        let error = #expect(throws: FolioError.self) {
            try indexOne(Self.nested(limit + 1), limits: IndexLimits(maxDepth: limit))
        }
        #expect(error?.code == "upstream-limit-exceeded")
        #expect(error?.detail.contains("maxJSONDepth") == true)
        let objects = Array(#"[{"a":{"b":[{}]}}]"#.utf8)
        #expect(throws: FolioError.self) { try indexOne(objects, limits: IndexLimits(maxDepth: 4)) }
    }

    /// Hostile nesting must fail cleanly, not overflow a stack: there is no recursion.
    @Test func hundredThousandOpenBracketsDoNotCrash() throws {
        let opens = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        let error = #expect(throws: FolioError.self) { try indexOne(opens) }
        #expect(error?.code == "upstream-limit-exceeded")

        let unlimited = IndexLimits(maxDepth: Int.max)
        let truncated = #expect(throws: FolioError.self) { try indexOne(opens, limits: unlimited) }
        #expect(truncated?.code == "bad-upstream-body")
        let deep = try indexOne(Self.nested(100_000), limits: unlimited, chunkLengths: [4096])
        #expect(deep.list.count == 1)
        #expect(deep.list.element(0).count == 2 * 99_999)
    }

    @Test func maxItemsCountsEveryBody() throws {
        let body = Array("[1,2,3]".utf8)
        #expect(throws: Never.self) { try indexOne(body, limits: IndexLimits(maxItems: 3)) }
        let error = #expect(throws: FolioError.self) { try indexOne(body, limits: IndexLimits(maxItems: 2)) }
        #expect(error?.code == "upstream-limit-exceeded")
        #expect(error?.detail.contains("maxItems") == true)

        var indexer = ListIndexer(items: .root, limits: IndexLimits(maxItems: 5), sort: [])
        try indexer.append(body)
        _ = try indexer.endBody()
        let crawl = #expect(throws: FolioError.self) { try indexer.append(body) }
        #expect(crawl?.code == "upstream-limit-exceeded")
    }

    @Test func nestedValuesAreNotItems() throws {
        #expect(throws: Never.self) {
            try indexOne(Array("[[1,2,3],{\"a\":[4,5]}]".utf8), limits: IndexLimits(maxItems: 2))
        }
    }

    @Test func maxBytesCountsEveryBody() throws {
        let body = Array("[1,2,3] ".utf8)
        #expect(throws: Never.self) { try indexOne(body, limits: IndexLimits(maxBytes: body.count), chunkLengths: [3]) }
        let error = #expect(throws: FolioError.self) {
            try indexOne(body, limits: IndexLimits(maxBytes: body.count - 1), chunkLengths: [3])
        }
        #expect(error?.code == "upstream-limit-exceeded")
        #expect(error?.detail.contains("maxUpstreamBytes") == true)

        var indexer = ListIndexer(items: .root, limits: IndexLimits(maxBytes: 2 * body.count - 1), sort: [])
        try indexer.append(body)
        _ = try indexer.endBody()
        indexer.reserve(additionalBytes: 1 << 30)  // capped by the limit, must not over-allocate or trap
        #expect(throws: FolioError.self) { try indexer.append(body) }
    }

    /// A crawl's later page may declare any `Content-Length` (an upstream's header, up to
    /// `Int.max`): reserving it after bytes are stored must neither overflow nor over-allocate.
    @Test func aHugeDeclaredLengthAfterAPageIsCappedNotAdded() throws {
        let body = Array("[1,2,3]".utf8)
        for maxBytes in [1 << 20, 64] {
            var indexer = ListIndexer(items: .root, limits: IndexLimits(maxBytes: maxBytes), sort: [])
            try indexer.append(body)
            _ = try indexer.endBody()
            indexer.reserve(additionalBytes: Int.max)
            indexer.reserve(additionalBytes: Int.max - 1)
            try indexer.append(body)
            _ = try indexer.endBody()
            #expect(try indexer.finish().0.count == 6)
        }
    }

    @Test func maxBytesAboveFourGibibytesActsAsUInt32Max() {
        #expect(IndexLimits(maxBytes: Int.max).effectiveMaxBytes == Int(UInt32.max))
        #expect(IndexLimits(maxBytes: 10).effectiveMaxBytes == 10)
    }
}
