import Synchronization
import Testing

@testable import FolioEngine

/// Chunks staged into the store and scanned together (`stage`, `scanStaged`), the way a fill
/// worker indexes what a download queued, and the pass waited for by a callback
/// (`whenSettled`) instead of a task.
@Suite struct ListIndexerStagingTests {
    /// Feeds `document` in chunks of `chunkLengths` (cycled), `groupSize` chunks staged per
    /// scan, each scan's hashing pass awaited through `whenSettled`.
    static func feedStaged(
        _ indexer: inout ListIndexer, _ document: [UInt8], chunkLengths: [Int], groupSize: Int
    ) async throws {
        var offset = 0
        var next = 0
        while offset < document.count {
            for _ in 0..<groupSize where offset < document.count {
                let length = min(chunkLengths[next % chunkLengths.count], document.count - offset)
                try Array(document[offset..<offset + length]).withUnsafeBytes { try indexer.stage($0) }
                offset += length
                next += 1
            }
            try indexer.scanStaged(overlapped: true)
            await settled(indexer)
            indexer.adoptSettled()
        }
    }

    /// Returns once `indexer`'s pass, if any, has called back.
    static func settled(_ indexer: ListIndexer) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if !indexer.whenSettled({ continuation.resume() }) { continuation.resume() }
        }
    }

    @Test(arguments: ListIndexerLargeTokenTests.Layout.allCases, [1, 3, 40])
    func stagedGroupsGiveTheTokenAndListOfAppends(layout: ListIndexerLargeTokenTests.Layout, groupSize: Int)
        async throws
    {
        var rng = SplitMix64(seed: 0x57A6 + UInt64(groupSize))
        let elements = ListIndexerLargeTokenTests.elements(&rng)
        let body = ListIndexerLargeTokenTests.body(elements, layout: layout, &rng)
        var indexer = ListIndexer(items: .root, limits: IndexLimits(), sort: ["name"])
        try await Self.feedStaged(&indexer, body, chunkLengths: [65_536, 7, 30_001], groupSize: groupSize)
        _ = try indexer.endBody()
        let staged = try indexer.finish()
        let appended = try indexOne(body, sort: ["name"], chunkLengths: [65_536])
        #expect(staged.token == SnapshotToken.compute(sort: ["name"], elements: elements))
        #expect(staged.token == appended.token)
        #expect(staged.list.count == elements.count)
        #expect(staged.list.starts == appended.list.starts && staged.list.ends == appended.list.ends)
    }

    @Test func whenSettledCallsBackOnlyForARunningPass() async throws {
        var rng = SplitMix64(seed: 0x5E77)
        let body = ListIndexerLargeTokenTests.body(ListIndexerLargeTokenTests.elements(&rng), layout: .compact, &rng)
        var indexer = ListIndexer(items: .root, limits: IndexLimits(), sort: [])
        #expect(!indexer.whenSettled { Issue.record("called back without a pass") })
        let half = body.count / 2
        try Array(body[..<half]).withUnsafeBytes { try indexer.stage($0) }
        try indexer.scanStaged(overlapped: true)
        #expect(indexer.hashing == nil, "the first scan has nothing earlier to hash")
        try Array(body[half...]).withUnsafeBytes { try indexer.stage($0) }
        try indexer.scanStaged(overlapped: true)
        #expect(indexer.hashing != nil)
        let calls = Atomic(0)
        let calledBack = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let waits = indexer.whenSettled {
                calls.add(1, ordering: .relaxed)
                continuation.resume(returning: true)
            }
            // Over already: no callback, the caller goes on.
            if !waits { continuation.resume(returning: false) }
        }
        #expect(calls.load(ordering: .relaxed) == (calledBack ? 1 : 0))
        indexer.adoptSettled()
        #expect(indexer.hashing == nil)
        _ = try indexer.endBody()
        #expect(try indexer.finish().token == (try indexOne(body).token))
    }

    @Test func stagingPastTheLimitFailsAtOnceAndForGood() throws {
        var indexer = ListIndexer(items: .root, limits: IndexLimits(maxBytes: 10), sort: [])
        try Array("[1,2,".utf8).withUnsafeBytes { try indexer.stage($0) }
        #expect(throws: FolioError.self) { try Array("3,4,5,6]".utf8).withUnsafeBytes { try indexer.stage($0) } }
        #expect(throws: FolioError.self) { try indexer.scanStaged(overlapped: true) }
        #expect(throws: FolioError.self) { try indexer.endBody() }
    }

    @Test func aScanWithNothingStagedChangesNothing() throws {
        var indexer = ListIndexer(items: .root, limits: IndexLimits(), sort: [])
        try Array("[1,2".utf8).withUnsafeBytes { try indexer.stage($0) }
        try indexer.scanStaged(overlapped: false)
        try indexer.scanStaged(overlapped: false)
        try Array("2,3]".utf8).withUnsafeBytes { try indexer.stage($0) }
        try indexer.scanStaged(overlapped: false)
        _ = try indexer.endBody()
        let (list, token) = try indexer.finish()
        #expect(list.count == 3)
        #expect(token == (try indexOne(Array("[1,22,3]".utf8)).token))
    }

    @Test func invalidStagedBytesFailTheScan() throws {
        var indexer = ListIndexer(items: .root, limits: IndexLimits(), sort: [])
        try Array("[1,".utf8).withUnsafeBytes { try indexer.stage($0) }
        try Array("}".utf8).withUnsafeBytes { try indexer.stage($0) }
        #expect(throws: FolioError.self) { try indexer.scanStaged(overlapped: false) }
        #expect(throws: FolioError.self) { try Array("2]".utf8).withUnsafeBytes { try indexer.stage($0) } }
    }
}
