import FolioEngine

/// One open event stream (docs/API.md, "Watching a list"): which view of its list it watches
/// and how it is woken. It holds no items: a watcher costs its stream and this, not a copy of
/// the list (the snapshot it is at is shared with every other watcher of the key).
final class Watcher: Sendable {
    enum Signal: Sendable {
        /// The key may have a new snapshot (the stream compares tokens).
        case changed
        /// Time for a `: keep-alive` line, unless an event goes out instead.
        case heartbeat
    }

    let id: Int
    let route: String
    let view: WatchView
    /// Wake-ups, newest kept: a stream that is busy writing misses none that matter, since it
    /// compares its token with the key's newest whatever woke it.
    let signals: AsyncStream<Signal>
    private let continuation: AsyncStream<Signal>.Continuation

    init(id: Int, route: String, view: WatchView) {
        self.id = id
        self.route = route
        self.view = view
        (signals, continuation) = AsyncStream.makeStream(of: Signal.self, bufferingPolicy: .bufferingNewest(1))
    }

    func signal(_ signal: Signal) {
        continuation.yield(signal)
    }

    /// Ends the stream (SIGTERM, a reload that changed its route).
    func end() {
        continuation.finish()
    }
}

/// What a watch stream's events describe: the request's view (sort, filters, `q`,
/// `beginsWith`) and `fields`, with a text that names it, so the watchers of one view share
/// each event's computation.
struct WatchView: Sendable {
    let selection: ListSelection
    let fields: [String]?
    /// The view parameters as sent (`ListRequest.kept`), joined.
    let key: String

    init(_ plan: ListPlan) {
        selection = plan.selection
        fields = plan.listRequest.fields
        key = plan.listRequest.kept.map(\.raw).joined(separator: "&")
    }
}
