import FolioEngine
import HTTPTypes
import NIOCore

extension ListEndpoint {
    /// Whether `request` opens an event stream (docs/API.md, "Watching a list"): `Accept:
    /// text/event-stream` with a token to start from (`since`, or a reconnecting client's
    /// `Last-Event-ID`, which wins).
    static func watchToken(_ request: HTTPRequest, since: String?) -> String? {
        guard asksForEventStream(request) else { return nil }
        if let last = request.headerFields[.lastEventID], !last.isEmpty { return last }
        return since
    }

    /// `Accept: text/event-stream`: the request asks for an event stream.
    static func asksForEventStream(_ request: HTTPRequest) -> Bool {
        request.headerFields[values: .accept].contains { $0.contains("text/event-stream") }
    }

    /// Opens a watch stream on the request's view: its first event answers `since` at once,
    /// then one event per new snapshot of the key (`EventStream`). Refused before the stream
    /// starts as `since` is (400, 409, 410), and with 503 beyond `server.watch.maxWatchers`.
    func watchAnswer(
        _ request: HTTPRequest, plan: ListPlan, since token: String, route: CompiledRoute, target: RequestTarget,
        record: RequestRecord
    ) async throws -> SentAnswer {
        let changes = try RouteChanges(route: route)
        guard let key = plan.fill.key else {
            throw FolioError.invalidParameter(
                "an event stream needs a cached list, and this request's credentials bypass the cache")
        }
        try watches.admit(limit: watch.maxWatchers)
        var pair: (old: Snapshot, new: Snapshot, outcome: CacheOutcome, first: ByteBuffer)?
        var passedThrough: SentAnswer?
        do {
            switch try await resolver.resolveChanges(plan.fill, since: token, route: route, check: changes.requireIDs) {
            case .pair(let old, let new, let outcome, _):
                let first = try await changes.onWorkers(
                    from: old, to: new, selection: plan.selection, fields: plan.listRequest.fields
                ) { computed in
                    EventStreamText.changes(
                        id: new.token, json: PatchWriter.body(computed, from: old.token, to: new.token))
                }
                pair = (old, new, outcome, first)
            case .gone(let current, let outcome):
                record.cache = outcome
                throw gone(token, listRequest: plan.listRequest, current: current, route: route, target: target)
            case .unanswered(let resolution):
                passedThrough = try unanswered(resolution, record: record)
            }
        } catch {
            watches.release()
            throw error
        }
        guard let pair else {
            watches.release()
            return passedThrough ?? Problem.answer(.internal)
        }
        let (old, new, outcome, first) = pair
        note(outcome, in: record)
        await cache.recount(new, for: key)
        if old !== new { await cache.recount(old, for: key) }
        let (watcher, entry) = watches.open(
            key: key, route: route.name, plan: plan.fill, eventKey: eventKey?(key), at: new, view: WatchView(plan))
        let stream = EventStream(hub: watches, entry: entry, watcher: watcher, first: first, at: new)
        var answer = SentAnswer(
            status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"], body: nil)
        answer.stream = stream
        return answer
    }
}
