/// What the handlers of one client connection share about its end (docs/API.md,
/// "Connections"): once any of them decides that no further request is read — the answer to a
/// request that ends the connection is owed or written, or the output was closed — the front
/// door drops every byte that still comes, and the decoder's side drops every part and parse
/// error, so nothing more is answered, counted or logged. Used on the connection's event loop
/// only.
final class ConnectionState {
    /// No further request is read from the connection.
    private(set) var inputEnded = false

    func endInput() {
        inputEnded = true
    }
}
