import FolioEngine
import Synchronization

/// One open event stream (docs/API.md, "Watching a list"): which view of its list it watches
/// and how it is woken. It holds no items: a watcher costs its stream and this, not a copy of
/// the list (the snapshot it is at is shared with every other watcher of the key).
final class Watcher: Sendable {
    enum Signal: Sendable {
        /// The key may have a new snapshot (the stream compares tokens).
        case changed
        /// Time for a `: keep-alive` line, unless an event goes out instead.
        case heartbeat
        /// The server ends the stream (SIGTERM, a reload that changed its route).
        case end
    }

    let id: Int
    let route: String
    let view: WatchView

    /// Who is woken: nobody yet (the signals that came meanwhile kept, the weightiest of each
    /// kind), or the stream's writer, once it has started.
    private enum Receiver {
        case waiting(changed: Bool, ended: Bool)
        case attached(@Sendable (Signal) -> Void)
    }

    private let receiver = Mutex(Receiver.waiting(changed: false, ended: false))

    init(id: Int, route: String, view: WatchView) {
        self.id = id
        self.route = route
        self.view = view
    }

    /// Wakes the stream's writer, or keeps the signal for it (a heartbeat before it started is
    /// not worth keeping: its first event is being written).
    func signal(_ signal: Signal) {
        let wake: (@Sendable (Signal) -> Void)? = receiver.withLock { receiver in
            switch receiver {
            case .attached(let wake): return wake
            case .waiting(let changed, let ended):
                receiver = .waiting(changed: changed || signal == .changed, ended: ended || signal == .end)
                return nil
            }
        }
        wake?(signal)
    }

    /// Ends the stream (SIGTERM, a reload that changed its route).
    func end() {
        signal(.end)
    }

    /// From now on `wake` is called with every signal, first with those that came before.
    func attach(_ wake: @escaping @Sendable (Signal) -> Void) {
        let kept = receiver.withLock { receiver in
            defer { receiver = .attached(wake) }
            guard case .waiting(let changed, let ended) = receiver else { return [Signal]() }
            return (changed ? [Signal.changed] : []) + (ended ? [.end] : [])
        }
        for signal in kept { wake(signal) }
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
