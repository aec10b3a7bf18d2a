/// Which requests of one connection `KeptAnswerHandler` answers itself and which it hands on
/// to Hummingbird's responder, so that answers leave in the order their requests came
/// (HTTP/1.1 pipelining) whoever writes them. Pure: the handler feeds it the parts it reads and
/// the answer ends the responder writes.
struct KeptAnswerPassage: Equatable {
    /// Requests handed on whose answer has not ended yet.
    private(set) var handedOn = 0
    private var reading = Reading.between

    private enum Reading: Equatable {
        /// No request is being read.
        case between
        /// The request being read goes to the responder.
        case handingOn
        /// The request being read is answered here when its end has been read.
        case answering
    }

    /// A request's head was read: may it be answered here? Only when no earlier request is
    /// still being answered by the responder, and only between requests.
    var mayAnswerNext: Bool { handedOn == 0 && reading == .between }

    /// The responder owes an answer to a request read to its end: the connection is busy, not
    /// idle. A request still being read (its body not all come) is the client's to finish, so
    /// it does not count, and a stalled body ends with the idle timeout.
    var owesAnswer: Bool { handedOn > (reading == .handingOn ? 1 : 0) }

    /// The head just read is answered here.
    mutating func answer() {
        precondition(mayAnswerNext)
        reading = .answering
    }

    /// The head just read goes to the responder.
    mutating func handOn() {
        handedOn += 1
        reading = .handingOn
    }

    enum PartAction: Equatable {
        case forward
        case drop
    }

    /// A body part was read: the responder's request's parts go on; an answered request has
    /// none (it is only answered when it announces no body) and a stray one is dropped.
    func body() -> PartAction {
        reading == .answering ? .drop : .forward
    }

    enum EndAction: Equatable {
        case forward
        case writeAnswer
    }

    /// A request's end was read.
    mutating func end() -> EndAction {
        defer { reading = .between }
        return reading == .answering ? .writeAnswer : .forward
    }

    /// The responder wrote the end of an answer.
    mutating func responderEnded() {
        handedOn = max(0, handedOn - 1)
    }
}
