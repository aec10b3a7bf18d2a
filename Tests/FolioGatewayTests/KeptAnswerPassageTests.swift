import Testing

@testable import FolioGateway

/// The order keeper of `KeptAnswerHandler`: which request parts go on to the responder, which
/// requests are answered on the event loop, so answers leave in the order requests came.
@Suite("Kept answer passage")
struct KeptAnswerPassageTests {
    @Test func anAnsweredRequestIsWrittenAtItsEndAndItsPartsStayHere() {
        var passage = KeptAnswerPassage()
        #expect(passage.mayAnswerNext)
        passage.answer()
        #expect(!passage.mayAnswerNext, "not while its own request is being read")
        #expect(passage.body() == .drop)
        #expect(passage.end() == .writeAnswer)
        #expect(passage.mayAnswerNext)
        #expect(passage.handedOn == 0)
    }

    @Test func nothingIsAnsweredHereWhileTheResponderOwesAnAnswer() {
        var passage = KeptAnswerPassage()
        passage.handOn()
        #expect(passage.body() == .forward)
        #expect(passage.end() == .forward)
        #expect(!passage.mayAnswerNext, "the responder has not written its answer's end yet")
        // A second pipelined request goes on too.
        passage.handOn()
        #expect(passage.end() == .forward)
        #expect(passage.handedOn == 2)
        passage.responderEnded()
        #expect(!passage.mayAnswerNext)
        passage.responderEnded()
        #expect(passage.mayAnswerNext)
    }

    @Test func anAnswerEndedBeforeItsRequestWasReadStillWaitsForThatEnd() {
        // A responder may answer (an error) before the request's body has been read.
        var passage = KeptAnswerPassage()
        passage.handOn()
        passage.responderEnded()
        #expect(!passage.mayAnswerNext, "the request is still being read")
        #expect(passage.body() == .forward)
        #expect(passage.end() == .forward)
        #expect(passage.mayAnswerNext)
    }

    @Test func moreEndsThanRequestsNeverGoBelowZero() {
        var passage = KeptAnswerPassage()
        passage.responderEnded()
        #expect(passage.handedOn == 0)
        #expect(passage.mayAnswerNext)
    }

    /// The idle timeout's "busy": only an answer the responder owes for a request read to its
    /// end; a request whose body has not all come is the client's to finish.
    @Test func theResponderOwesAnAnswerOnlyForRequestsReadToTheirEnd() {
        var passage = KeptAnswerPassage()
        #expect(!passage.owesAnswer)
        passage.handOn()
        #expect(!passage.owesAnswer, "its body is still being read")
        #expect(passage.end() == .forward)
        #expect(passage.owesAnswer)
        passage.handOn()
        #expect(passage.owesAnswer, "the first request's answer is still owed")
        passage.responderEnded()
        #expect(!passage.owesAnswer, "the second is still being read")
        #expect(passage.end() == .forward)
        #expect(passage.owesAnswer)
        passage.responderEnded()
        #expect(!passage.owesAnswer)
        passage.answer()
        #expect(!passage.owesAnswer, "answered here, at its end")
    }
}
