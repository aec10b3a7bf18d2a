import FolioEngine
import Hummingbird
import NIOCore
import Synchronization

/// The body of one watch stream (docs/API.md, "Watching a list"): the first event, then an
/// event whenever its key has a snapshot newer than the stream's, and a heartbeat when woken
/// for one with nothing to send. It ends when the server ends it, or when the client is gone
/// (the next write fails: within a heartbeat).
struct EventStream: Sendable {
    let hub: WatchHub
    let entry: WatchedKey
    let watcher: Watcher
    /// The first event and the snapshot it brought the stream to, handed to the stream once: it
    /// keeps neither after (the bytes are sent; the snapshot is held only while it is current
    /// for the stream).
    let start: OneShot<(first: ByteBuffer, at: Snapshot)>

    init(hub: WatchHub, entry: WatchedKey, watcher: Watcher, first: ByteBuffer, at: Snapshot) {
        self.hub = hub
        self.entry = entry
        self.watcher = watcher
        start = OneShot((first, at))
    }

    var body: ResponseBody {
        ResponseBody { writer in
            do {
                try await run(&writer)
            } catch {
                hub.close(watcher, of: entry)
                throw error
            }
            hub.close(watcher, of: entry)
            try await writer.finish(nil)
        }
    }

    private func run(_ writer: inout any ResponseBodyWriter) async throws {
        let events = hub.metrics.watchEvents(watcher.route)
        var at: Snapshot
        do {
            guard let taken = start.take() else { return }
            at = taken.at
            try await writer.write(taken.first)
        }
        events.increment()
        for await signal in watcher.signals {
            if entry.latest.token != at.token {
                let from = at
                let (bytes, latest) = await entry.event(from: from, view: watcher.view) {
                    [hub, entry, watcher] latest in
                    await Self.event(from: from, to: latest, view: watcher.view, entry: entry, hub: hub)
                }
                // No event can describe the new list (its ids are not unique, its route lost its
                // idField): the stream ends, and the client's reconnection gets the problem.
                guard let bytes else { return }
                try await writer.write(bytes)
                events.increment()
                at = latest
            } else if case .heartbeat = signal {
                try await writer.write(EventStreamText.heartbeat)
            }
        }
    }

    /// The event from `from` to `to` for `view`, or nil when there can be none.
    static func event(
        from: Snapshot, to: Snapshot, view: WatchView, entry: WatchedKey, hub: WatchHub
    ) async -> ByteBuffer? {
        guard let gateway = hub.gateway, let route = gateway.route(named: entry.route),
            let changes = try? RouteChanges(route: route),
            let computed = try? changes.changes(from: from, to: to, selection: view.selection, fields: view.fields)
        else { return nil }
        // The new snapshot's ids are kept with it: part of the bound.
        await gateway.cache.recount(to, for: entry.key)
        return EventStreamText.changes(
            id: to.token, json: PatchWriter.body(computed, from: from.token, to: to.token))
    }
}

/// A value handed over once: `take` gives it to the first caller and forgets it.
final class OneShot<Value: Sendable>: Sendable {
    private let value: Mutex<Value?>

    init(_ value: Value) {
        self.value = Mutex(value)
    }

    func take() -> Value? {
        value.withLock { value in
            defer { value = nil }
            return value
        }
    }
}
