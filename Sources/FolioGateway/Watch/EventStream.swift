import FolioEngine
import Hummingbird
import NIOCore
import Prometheus
import Synchronization

/// One watch stream's position and its events (docs/API.md, "Watching a list"): the first
/// event, then, whenever its key has a snapshot newer than the stream's, the event that brings
/// it there (computed once for every stream of the view at that token). Whoever writes the
/// stream drives it: `EventStreamConnection` on the event loop of a connection the front door
/// gave to the stream, or `responseBody` in Hummingbird's responder.
final class EventStream: Sendable {
    let hub: WatchHub
    let entry: WatchedKey
    let watcher: Watcher
    /// Events sent on the stream's route.
    let sentEvents: Counter

    private struct Position {
        /// The snapshot the stream is at: held only while it is current for the stream.
        var at: Snapshot
        /// The first event, until it is taken.
        var first: ByteBuffer?
        var closed = false
    }

    private let position: Mutex<Position>

    init(hub: WatchHub, entry: WatchedKey, watcher: Watcher, first: ByteBuffer, at: Snapshot) {
        self.hub = hub
        self.entry = entry
        self.watcher = watcher
        sentEvents = hub.metrics.watchEvents(watcher.route)
        position = Mutex(Position(at: at, first: first))
    }

    /// The first event, given once.
    func takeFirst() -> ByteBuffer? {
        position.withLock { position in
            defer { position.first = nil }
            return position.first
        }
    }

    /// The key has a snapshot newer than the stream's.
    var isBehind: Bool { entry.latest.token != position.withLock { $0.at.token } }

    enum Next: Sendable {
        /// The stream is at the key's newest snapshot.
        case upToDate
        /// The event to send: the stream is at the newest snapshot once it is sent.
        case event(ByteBuffer)
        /// No event can describe the new list (its ids are not unique, its route lost its
        /// `idField`): the stream ends, and the client's reconnection gets the problem.
        case end
    }

    /// The event that brings the stream to its key's newest snapshot.
    func next() async -> Next {
        let from = position.withLock { $0.at }
        guard entry.latest.token != from.token else { return .upToDate }
        let (bytes, latest) = await entry.event(from: from, view: watcher.view) { [hub, entry, watcher] latest in
            await Self.event(from: from, to: latest, view: watcher.view, entry: entry, hub: hub)
        }
        guard let bytes else { return .end }
        position.withLock { $0.at = latest }
        return .event(bytes)
    }

    /// The stream ended (the client left, or the server ended it): the hub forgets it. Once.
    func closed() {
        let first = position.withLock { position in
            defer { position.closed = true }
            return !position.closed
        }
        if first { hub.close(watcher, of: entry) }
    }

    /// The event from `from` to `to` for `view`, or nil when there can be none.
    static func event(
        from: Snapshot, to: Snapshot, view: WatchView, entry: WatchedKey, hub: WatchHub
    ) async -> ByteBuffer? {
        guard let gateway = hub.gateway, let route = gateway.route(named: entry.route),
            let changes = try? RouteChanges(route: route),
            let event = try? await changes.onWorkers(
                from: from, to: to, selection: view.selection, fields: view.fields,
                write: {
                    EventStreamText.changes(id: to.token, json: PatchWriter.body($0, from: from.token, to: to.token))
                })
        else { return nil }
        // The new snapshot's ids are kept with it: part of the bound.
        await gateway.cache.recount(to, for: entry.key)
        return event
    }
}

extension EventStream {
    /// The stream as a body Hummingbird's responder writes (a connection the front door could
    /// not give to the stream: one with requests still answered before it). It ends when the
    /// server ends it, or when the client is gone (the next write fails: within a heartbeat).
    var responseBody: ResponseBody {
        ResponseBody { [self] writer in
            defer { closed() }
            let (signals, wake) = AsyncStream.makeStream(of: Watcher.Signal.self, bufferingPolicy: .bufferingNewest(1))
            watcher.attach { signal in
                if case .end = signal { wake.finish() } else { wake.yield(signal) }
            }
            if let first = takeFirst() {
                try await writer.write(first)
                sentEvents.increment()
            }
            loop: for await signal in signals {
                switch await next() {
                case .event(let bytes):
                    try await writer.write(bytes)
                    sentEvents.increment()
                case .end:
                    break loop
                case .upToDate:
                    if case .heartbeat = signal { try await writer.write(EventStreamText.heartbeat) }
                }
            }
            try await writer.finish(nil)
        }
    }
}
