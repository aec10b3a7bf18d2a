import Foundation
import Testing

@testable import FolioGateway

/// What a replica records when the one fill for all replicas fails, read back by the replicas
/// that waited for it.
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
}
