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
        _ document: [UInt8], items: JSONPointer, limits: IndexLimits, batchBytes: Int, maxBatchDelay: Duration,
        chunkLengths: [Int]
    ) async -> Outcome {
        let box = IndexerBox(
            ListIndexer(items: items, limits: limits, sort: []), batchBytes: batchBytes, maxBatchDelay: maxBatchDelay)
        do throws(FolioError) {
            try await feedBatched(box, document, chunkLengths: chunkLengths)
            let body = try await box.endBody()
            let (list, token) = try box.finish()
            return .list(elements: list.elements, token: token, items: body.itemCount)
        } catch {
            return .failure(error)
        }
    }

    /// Random lists, valid or with one byte changed or cut short, at random batch sizes (down to
    /// a byte, so a batch may end inside any token) and chunk lengths, with the timer's
    /// hand-overs racing the feeds or never coming.
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
            let delay = gen.rng.pick([Duration.zero, .microseconds(100), .seconds(3600)])
            let chunks = randomChunkLengths(&gen.rng, documentLength: document.count)
            let outcome = await Self.batched(
                document, items: items, limits: limits, batchBytes: batchBytes, maxBatchDelay: delay,
                chunkLengths: chunks)
            // A body both too large and invalid before the limit: the in-line indexer, given it
            // at once, reports the size; a batch that ends before the limit finds the bad byte.
            let foundFirst = Self.inline(document, items: items, limits: IndexLimits())
            let bothRight =
                if case .failure(let error) = expected, error.limit == .maxUpstreamBytes,
                    case .failure = foundFirst
                { outcome == foundFirst } else { false }
            #expect(
                outcome == expected || bothRight,
                "seed \(seed), batches of \(batchBytes), delay \(delay), chunks \(chunks), document \(show(document))")
        }
        // Both kinds of outcome were compared.
        #expect(failures > 50 && failures < 250)
    }

    /// Chunks gather until a batch is full, which goes to a worker without waiting for its
    /// scan; a smaller rest only when the box is drained (or its timer fires, here never).
    @Test func aFullBatchIsScannedWhileTheNextIsGathered() async throws {
        var gen = RandomJSON(seed: 0xB47C)
        let elements = gen.elements(400)
        let document = gen.body(gen.array(of: elements))
        let box = IndexerBox(
            ListIndexer(items: .root, limits: IndexLimits(), sort: []), batchBytes: 1000, maxBatchDelay: .seconds(3600))
        try await box.feed(Array(document[..<10]))
        try await box.feed(Array(document[10..<999]))
        #expect(box.scanning == nil, "less than a batch stays gathered")
        #expect(box.indexerForTesting.store.isEmpty)
        try await box.feed(Array(document[999..<1000]))
        #expect(box.scanning != nil, "a full batch is handed over without waiting for its scan")
        try await box.feed(Array(document[1000...]))
        try await box.drain()
        #expect(box.scanning == nil)
        #expect(box.indexerForTesting.store == document)
        _ = try await box.endBody()
        let (list, token) = try box.finish()
        #expect(list.elements == elements)
        #expect(token == SnapshotToken.compute(sort: [], elements: elements))
    }

    /// A bad byte that nothing follows, in a body's first chunk (an error page answered with
    /// `200`) or in a burst of chunks, is found without another feed: the download that stalls
    /// after it can be cancelled. Every later call throws the same error.
    @Test(arguments: [["<html>"], ["[1,", "}", "2"]])
    func aBadChunkThatNothingFollowsIsFound(_ chunks: [String]) async throws {
        let box = IndexerBox(ListIndexer(items: .root, limits: IndexLimits(), sort: []), batchBytes: 1 << 20)
        let error = try #require(Self.failure(of: chunks.joined()))
        for chunk in chunks { try await box.feed(Array(chunk.utf8)) }
        #expect(await Self.failure(of: box, within: Self.patience) == error)
        await #expect(throws: error) { try await box.feed(Array("more".utf8)) }
        await #expect(throws: error) { try await box.drain() }
    }

    /// A good batch that nothing follows is scanned by the timer, and reports no failure.
    @Test func aGoodBatchThatNothingFollowsIsScanned() async throws {
        let box = IndexerBox(ListIndexer(items: .root, limits: IndexLimits(), sort: []), batchBytes: 1 << 20)
        try await box.feed(Array("[1,".utf8))
        try await box.feed(Array("2,".utf8))
        let waitingSince = ContinuousClock.now
        while box.scanning == nil, ContinuousClock.now - waitingSince < Self.patience {
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(box.scanning != nil, "the timer hands the batch over")
        #expect(await Self.failure(of: box, within: .milliseconds(50)) == nil)
        try await box.feed(Array("3]".utf8))
        try await box.drain()
        #expect(box.indexerForTesting.store == Array("[1,2,3]".utf8))
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

    /// `box.failure()`, or nil if it has not come within `limit`.
    static func failure(of box: IndexerBox, within limit: Duration) async -> FolioError? {
        await withTaskGroup(of: FolioError?.self) { group in
            group.addTask { await box.failure() }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            return await group.next() ?? nil
        }
    }

    /// How long a test waits for the box's timer: only the timer can act (nothing else is fed),
    /// so the bound costs nothing when it passes. Generous, since the timer's task needs a thread
    /// of the cooperative pool, which the suite's large in-line indexing tests can hold for
    /// tens of seconds on a busy machine (30 s was seen to be too short).
    static let patience = Duration.seconds(600)

    /// The in-line indexer's error for `document`, if any.
    static func failure(of document: String) -> FolioError? {
        guard case .failure(let error) = Self.inline(Array(document.utf8), items: .root, limits: IndexLimits()) else {
            return nil
        }
        return error
    }
}
