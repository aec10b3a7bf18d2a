import Testing

@testable import FolioEngine

/// A fill feeds its download to an `IndexerBox` in batches scanned on a fill worker while the
/// next is gathered. Whatever the batches and chunks, the outcome must be the in-line indexer's:
/// the same elements and token, or the same error.
@Suite struct IndexerBoxTests {
    /// The outcome of indexing one document, comparable across feeding paths.
    enum Outcome: Equatable {
        case list(elements: [[UInt8]], token: String, items: Int)
        case failure(FolioError)
    }

    static func inline(_ document: [UInt8], items: JSONPointer, limits: IndexLimits) -> Outcome {
        do throws(FolioError) {
            let (list, token, body) = try indexOne(document, items: items, limits: limits)
            return .list(elements: list.elements, token: token, items: body.itemCount)
        } catch {
            return .failure(error)
        }
    }

    static func batched(
        _ document: [UInt8], items: JSONPointer, limits: IndexLimits, batchBytes: Int, chunkLengths: [Int]
    ) async -> Outcome {
        let box = IndexerBox(ListIndexer(items: items, limits: limits, sort: []), batchBytes: batchBytes)
        do throws(FolioError) {
            try await feedBatched(box, document, chunkLengths: chunkLengths)
            let body = try box.indexer.endBody()
            let (list, token) = try box.finish()
            return .list(elements: list.elements, token: token, items: body.itemCount)
        } catch {
            return .failure(error)
        }
    }

    /// Random lists, valid or with one byte changed or cut short, at random batch sizes (down to
    /// a byte, so a batch may end inside any token) and chunk lengths.
    @Test func batchesGiveTheInlineOutcome() async throws {
        var failures = 0
        for seed in UInt64(0xB0C5_0000)..<UInt64(0xB0C5_0000 + 300) {
            var gen = RandomJSON(seed: seed)
            gen.whitespacePercent = gen.rng.pick([0, 30])
            let elements = gen.elements(gen.rng.below(60))
            let nested = gen.rng.chance(50)
            let root = gen.array(of: elements)
            var document = gen.body(nested ? gen.members([(Array(#""data""#.utf8), root)]) : root)
            switch gen.rng.below(3) {
            case 0: break
            case 1 where document.count > 1:
                document[gen.rng.below(document.count)] = gen.rng.pick(Array("{}[],:\"x0 \\".utf8))
            default: document.removeLast(gen.rng.below(max(1, document.count / 2)))
            }
            let items = try JSONPointer(nested ? "/data" : "")
            let limits = gen.rng.chance(10) ? IndexLimits(maxBytes: document.count / 2 + 1) : IndexLimits()
            let expected = Self.inline(document, items: items, limits: limits)
            if case .failure = expected { failures += 1 }
            let batchBytes = gen.rng.pick([1, 7, 100, 1000, 1 << 20])
            let chunks = randomChunkLengths(&gen.rng, documentLength: document.count)
            let outcome = await Self.batched(
                document, items: items, limits: limits, batchBytes: batchBytes, chunkLengths: chunks)
            #expect(
                outcome == expected,
                "seed \(seed), batches of \(batchBytes), chunks \(chunks), document \(show(document))")
        }
        // Both kinds of outcome were compared.
        #expect(failures > 50 && failures < 250)
    }

    /// A body's first chunk is scanned before `feed` returns; later ones gather until a batch is
    /// full, which goes to a worker without waiting for its scan, and a smaller rest only when
    /// the box is drained.
    @Test func aFullBatchIsScannedWhileTheNextIsGathered() async throws {
        var gen = RandomJSON(seed: 0xB47C)
        let elements = gen.elements(400)
        let document = gen.body(gen.array(of: elements))
        let box = IndexerBox(
            ListIndexer(items: .root, limits: IndexLimits(), sort: []), batchBytes: 1000, maxBatchDelay: .seconds(3600))
        try await box.feed(Array(document[..<10]))
        #expect(
            box.scanning == nil && box.indexer.store == Array(document[..<10]), "the first chunk is scanned at once")
        try await box.feed(Array(document[10..<1009]))
        #expect(box.scanning == nil, "less than a batch stays gathered")
        #expect(box.indexer.store.count == 10)
        try await box.feed(Array(document[1009..<1010]))
        #expect(box.scanning != nil, "a full batch is handed over without waiting for its scan")
        try await box.feed(Array(document[1010...]))
        try await box.drain()
        #expect(box.scanning == nil)
        #expect(box.indexer.store == document)
        _ = try box.indexer.endBody()
        let (list, token) = try box.finish()
        #expect(list.elements == elements)
        #expect(token == SnapshotToken.compute(sort: [], elements: elements))
    }

    /// A bad first chunk (an error page answered with `200`) fails the feed at once.
    @Test func aBadFirstChunkFailsAtOnce() async throws {
        let box = IndexerBox(ListIndexer(items: .root, limits: IndexLimits(), sort: []))
        let error = try #require(Self.failure(of: "<html>"))
        await #expect(throws: error) { try await box.feed(Array("<html>".utf8)) }
        await #expect(throws: error) { try await box.feed(Array("more".utf8)) }
        await #expect(throws: error) { try await box.drain() }
    }

    /// A chunk that comes after a pause while the worker is idle (a slow download) is scanned
    /// before `feed` returns: its error stops the download at once, even if nothing follows.
    @Test func aSlowDownloadsBadChunkFailsAtOnce() async throws {
        let box = IndexerBox(
            ListIndexer(items: .root, limits: IndexLimits(), sort: []), batchBytes: 1 << 20,
            maxBatchDelay: .milliseconds(1))
        let error = try #require(Self.failure(of: "[1,}"))
        try await box.feed(Array("[1,".utf8))
        try await Task.sleep(for: .milliseconds(10))
        await #expect(throws: error) { try await box.feed(Array("}".utf8)) }
        await #expect(throws: error) { try await box.drain() }
    }

    /// A batch handed over without waiting: the first feed after its scan ended throws its
    /// error, and so does every later call.
    @Test func aFinishedBatchsErrorFailsTheNextFeed() async throws {
        let box = IndexerBox(
            ListIndexer(items: .root, limits: IndexLimits(), sort: []), batchBytes: 4, maxBatchDelay: .seconds(3600))
        let error = try #require(Self.failure(of: "[1,}xyz"))
        try await box.feed(Array("[1,".utf8))
        try await box.feed(Array("}xyz".utf8))
        let job = try #require(box.scanning, "a full batch is handed over without waiting")
        while !job.isFinished { try await Task.sleep(for: .milliseconds(1)) }
        await #expect(throws: error) { try await box.feed(Array("1".utf8)) }
        await #expect(throws: error) { try await box.feed(Array("2".utf8)) }
        await #expect(throws: error) { try await box.drain() }
    }

    /// The in-line indexer's error for `document`, if any.
    static func failure(of document: String) -> FolioError? {
        guard case .failure(let error) = Self.inline(Array(document.utf8), items: .root, limits: IndexLimits()) else {
            return nil
        }
        return error
    }
}
