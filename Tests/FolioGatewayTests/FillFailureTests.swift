import FolioEngine
import FolioRedisStore
import Foundation
import Testing

@testable import FolioGateway

/// What a replica records when the one fill for all replicas fails, read back by the replicas
/// that waited for it: the gateway's upstream answer in `FillFailure` (the record itself is
/// `FolioRedisStore`'s), and what each fill result tells the waiters.
@Suite("Fill failure record")
struct FillFailureTests {
    @Test func anUpstreamErrorAnswerComesBackWhole() throws {
        let answer = UpstreamAnswer(
            status: 429, headers: [("Retry-After", "5"), ("Content-Type", "text/plain")], body: Array("slow down".utf8))
        let read = FillFailure(FillFailure(answer).encoded)
        let back = try #require(read.answer)
        #expect(back.status == 429)
        #expect(back.headers.map(\.name) == ["Retry-After", "Content-Type"])
        #expect(back.headers.map(\.value) == ["5", "text/plain"])
        #expect(back.body == Array("slow down".utf8))
        #expect(read.detail == "the upstream answered 429")
    }

    @Test func anotherFailureIsItsDetailOnly() {
        let read = FillFailure(FillFailure(detail: "upstream timed out").encoded)
        #expect(read.answer == nil)
        #expect(read.detail == "upstream timed out")
        // A record in the plain text of an older replica.
        #expect(
            FillFailure(Array("the upstream answered 503".utf8)) == FillFailure(detail: "the upstream answered 503"))
    }

    /// An error answer is the waiters' too; an answer that may not be shared sends each waiter
    /// to fill for itself; a stored list (or none) is theirs to load.
    @Test func whatAFillResultTellsTheReplicasThatWaited() throws {
        let answer = UpstreamAnswer(status: 503, headers: [("Retry-After", "1")], body: Array("busy".utf8))
        var indexer = ListIndexer(items: .root, limits: IndexLimits(), sort: [])
        try indexer.append(Array("[1]".utf8))
        _ = try indexer.endBody()
        let (list, token) = try indexer.finish()
        let snapshot = Snapshot(
            list: list, token: token, storedAt: .now, freshUntil: .now,
            indexes: SnapshotIndexes(list: list, sectionKey: nil))
        #expect(FillResult.upstream(answer).end == .failed(FillFailure(answer)))
        #expect(FillResult.uncacheable(snapshot).end == .unshared)
        #expect(FillResult.unstored(snapshot).end == .unshared)
        #expect(FillResult.stored(snapshot).end == .shareable)
        #expect(FillResult.revalidated(snapshot, renews: true).end == .shareable)
        #expect(FillResult.shared(snapshot, waited: true).end == .shareable)
        #expect(FillResult.failure(FolioError.upstreamFailed("boom")).detail == "boom")
    }
}
