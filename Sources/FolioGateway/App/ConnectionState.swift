import NIOCore

/// What the handlers of one client connection share about its end (docs/API.md,
/// "Connections"): once any of them decides that no further request is read — the answer to a
/// request that ends the connection is owed or written, or the output was closed — the front
/// door drops every byte that still comes, and the decoder's side drops every part and parse
/// error, so nothing more is answered, counted or logged. Used on the connection's event loop
/// only.
///
/// It also says when Hummingbird's loop of the connection starts (`KeptAnswerChannel`): at the
/// first request the front door hands on, never for a connection whose requests the front door
/// answered all, or that it gave to an event stream (then the loop's task and what it holds are
/// not kept for as long as the connection lasts).
final class ConnectionState {
    /// No further request is read from the connection.
    private(set) var inputEnded = false
    /// Completed once: true when the loop is to run, false when it never will.
    private let loop: EventLoopPromise<Bool>?
    private var loopDecided = false

    init(loop: EventLoopPromise<Bool>? = nil) {
        self.loop = loop
    }

    func endInput() {
        inputEnded = true
    }

    /// A request goes to Hummingbird: its loop runs from now on.
    func startLoop() {
        decideLoop(true)
    }

    /// The loop is not needed (the connection closed, or an event stream has it), unless it
    /// started already.
    func forgoLoop() {
        decideLoop(false)
    }

    private func decideLoop(_ runs: Bool) {
        guard !loopDecided else { return }
        loopDecided = true
        loop?.succeed(runs)
    }
}
