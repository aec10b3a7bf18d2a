import Testing

@testable import FolioGateway

/// The rules of `IndexFeed`: chunks queue while a step indexes, the download waits only past
/// the limit, steps take bounded batches in order, a drain waits for the last step, and a
/// failure refuses everything after it and frees every waiter.
@Suite("Index feed state")
struct IndexFeedStateTests {
    struct Broken: Error {}
    typealias State = IndexFeedState<String, String>

    @Test func theFirstChunkStartsAStepAndLaterOnesJoinItsQueue() throws {
        var state = State(limit: 100, batch: 50)
        guard case .queued(startStep: true, wait: false) = state.receive("a", bytes: 10) else {
            Issue.record("the first chunk should start a step")
            return
        }
        guard case .queued(startStep: false, wait: false) = state.receive("b", bytes: 10) else {
            Issue.record("a step runs already")
            return
        }
        #expect(state.queuedBytes == 20)
        #expect(state.takeBatch().chunks == ["a", "b"])
        let end = state.takeBatch()
        #expect(end.chunks.isEmpty && end.resume == nil)
        #expect(!state.stepping)
        guard case .queued(startStep: true, _) = state.receive("c", bytes: 1) else {
            Issue.record("an idle feed starts a new step")
            return
        }
    }

    @Test(arguments: [
        // chunk sizes, batch, the batches taken
        ([10, 10, 10, 10], 25, [["0", "1"], ["2", "3"]]),
        ([40, 10], 25, [["0"], ["1"]]),  // one chunk over the batch still goes alone
        ([5, 5, 5], 100, [["0", "1", "2"]]),
        ([30, 1, 30], 30, [["0"], ["1"], ["2"]]),
    ])
    func batchesAreBoundedAndInOrder(sizes: [Int], batch: Int, expected: [[String]]) {
        var state = State(limit: 1000, batch: batch)
        for (index, size) in sizes.enumerated() { _ = state.receive(String(index), bytes: size) }
        var batches: [[String]] = []
        while case let chunks = state.takeBatch().chunks, !chunks.isEmpty { batches.append(chunks) }
        #expect(batches == expected)
        #expect(state.queuedBytes == 0)
    }

    @Test func theDownloadWaitsPastTheLimitUntilAStepMakesRoom() {
        var state = State(limit: 30, batch: 20)
        _ = state.receive("a", bytes: 20)
        guard case .queued(_, wait: true) = state.receive("b", bytes: 10) else {
            Issue.record("30 bytes queued: the download should wait")
            return
        }
        guard case .parked = state.waitForRoom("download") else {
            Issue.record("no room yet")
            return
        }
        let (chunks, resume) = state.takeBatch()
        #expect(chunks == ["a"])
        #expect(resume == "download", "10 bytes left: below the limit")
        #expect(state.takeBatch().resume == nil, "resumed once")
    }

    @Test func roomMadeBeforeTheDownloadParksLetsItGoOn() {
        var state = State(limit: 10, batch: 100)
        guard case .queued(_, wait: true) = state.receive("a", bytes: 10) else {
            Issue.record("the download should wait")
            return
        }
        _ = state.takeBatch()
        guard case .proceed(failure: nil) = state.waitForRoom("download") else {
            Issue.record("room was made meanwhile")
            return
        }
    }

    @Test func aDrainWaitsForTheLastStep() {
        var state = State(limit: 100, batch: 100)
        guard case .done(failure: nil) = state.drain("fill") else {
            Issue.record("an idle feed is drained")
            return
        }
        _ = state.receive("a", bytes: 5)
        guard case .parked = state.drain("fill") else {
            Issue.record("a step is under way")
            return
        }
        #expect(state.takeBatch() == (["a"], nil))
        #expect(state.takeBatch() == ([], "fill"))
    }

    @Test func aFailureFreesEveryWaiterAndRefusesLaterChunks() {
        var state = State(limit: 10, batch: 5)
        _ = state.receive("a", bytes: 5)
        _ = state.receive("b", bytes: 5)
        _ = state.waitForRoom("download")
        _ = state.drain("fill")
        #expect(Set(state.fail(Broken())) == ["download", "fill"])
        #expect(state.queuedBytes == 0 && !state.stepping)
        guard case .failed(let error) = state.receive("c", bytes: 1) else {
            Issue.record("a failed feed takes no chunk")
            return
        }
        #expect(error is Broken)
        guard case .done(failure: .some) = state.drain("again") else {
            Issue.record("a failed feed drains at once, with its failure")
            return
        }
        guard case .proceed(failure: .some) = state.waitForRoom("download") else {
            Issue.record("a failed feed lets the download go on to learn of it")
            return
        }
    }

    final class Chunk {}

    @Test func aTakenChunkIsNotKeptWhileLaterOnesWait() {
        var state = IndexFeedState<Chunk, String>(limit: 1_000, batch: 10)
        weak var first: Chunk?
        do {
            let chunk = Chunk()
            first = chunk
            _ = state.receive(chunk, bytes: 10)
        }
        _ = state.receive(Chunk(), bytes: 10)
        #expect(first != nil, "queued")
        #expect(state.takeBatch().chunks.count == 1)
        // The download keeps ahead: the queue never empties while the body streams in.
        _ = state.receive(Chunk(), bytes: 10)
        #expect(first == nil, "the indexed chunk is the feed's no longer")
        #expect(state.queuedBytes == 20)
    }
}
