import FolioConfiguration
import FolioEngine
import HTTPTypes
import NIOCore

/// The one answerer of list requests (GET or HEAD on a route path): a slice of the route's
/// snapshot, from its kept answer or rendered and then kept (docs/API.md, "Rendered answers").
///
/// Both callers ask it: the front door and `KeptAnswerHandler` for an answer given at once on
/// the event loop (docs/DESIGN.md, "Kept answers on the event loop"), the responder for one that
/// may wait. Both end in `send`, so a kept answer is the same answer whichever path gave it;
/// they differ only in how the snapshot is found (held in memory, or resolved).
struct ListEndpoint: Sendable {
    /// Finds each list request's snapshot (cache, fill, stale, direct).
    let resolver: SnapshotResolver
    let cache: FillCoalescer
    let renderer: ListRenderer
    /// `server.trustedProxies`, for the proxy headers of a fill.
    let trustedProxies: [CIDR]
    /// The server's event streams, and `server.watch`.
    let watches: WatchHub
    let watch: Configuration.Watch
    /// A cache key's name on the shared store's events channel (nil: a memory store).
    let eventKey: (@Sendable (CacheKey) -> String)?

    /// The answer to a list request when it can be given at once, without waiting: nil when answering needs anything else
    /// (a fill, a render, a store that must be asked, an error to report).
    ///
    /// It reads only the request's head: the upstream request is never built here.
    func answer(
        _ request: HTTPRequest, route: CompiledRoute, match: RouteMatch, target: RequestTarget,
        record: RequestRecord
    ) -> SentAnswer? {
        let fields = request.headerFields
        guard
            let query = try? ListPlan.queryPlan(target.query ?? "", rangeHeader: fields[.range], route: route),
            query.listRequest.since == nil, fields[.lastEventID] == nil,
            let key = ListSelector(fields, route: route, match: match, parameters: query.parameters).key(route: route),
            case .served(let snapshot, let outcome, let age) = resolver.resolveHeld(
                key, token: query.listRequest.snapshot, route: route),
            let kept = snapshot.rendered.answer(KeptListAnswer.key(request, route: route), as: KeptListAnswer.self)
        else { return nil }
        return send(kept, to: request, outcome: outcome, age: age, record: record)
    }

    /// The answer to a list request when it may wait (fill, wait on another request's fill,
    /// render); throws the problem it ends in (a bad query, a failed fill, 410, 416). How the
    /// cache answered is in `record`, whose `Cache-Status` the gateway's `decorate` adds.
    func answer(
        _ request: HTTPRequest, peer: SocketAddress?, route: CompiledRoute, match: RouteMatch,
        target: RequestTarget, requestID: String, record: RequestRecord
    ) async throws -> SentAnswer {
        let plan = try ListPlan(
            request, peer: peer, route: route, match: match, target: target, requestID: requestID,
            trustedProxies: trustedProxies)
        let listRequest = plan.listRequest
        if let token = Self.watchToken(request, since: listRequest.since) {
            return try await watchAnswer(
                request, plan: plan, since: token, route: route, target: target, record: record)
        }
        if let since = listRequest.since {
            return try await changesAnswer(
                request, plan: plan, since: since, route: route, target: target, record: record)
        }
        let resolution = await resolver.resolve(plan.fill, token: listRequest.snapshot, route: route)
        switch resolution {
        case .served(let snapshot, let outcome, let age):
            let answerKey = KeptListAnswer.key(request, route: route)
            if let kept = snapshot.rendered.answer(answerKey, as: KeptListAnswer.self) {
                return send(kept, to: request, outcome: outcome, age: age, record: record)
            }
            // Noted before rendering: a 416 is an answer of this outcome too.
            note(outcome, in: record)
            let selection = plan.selection
            let builds = selection.buildsIndexes(route: route)
            let render = { @Sendable [renderer] () throws -> (KeptListAnswer, grew: Bool) in
                var grew = false
                let answer: KeptListAnswer
                if let groupBy = selection.groupBy {
                    answer = renderer.sectionIndex(
                        request, route: route, listRequest: listRequest, groupBy: groupBy, selection: selection,
                        snapshot: snapshot, target: target, grew: &grew)
                } else {
                    answer = try renderer.page(
                        request, route: route, listRequest: listRequest, view: selection.view(of: snapshot),
                        snapshot: snapshot, target: target, grew: &grew)
                }
                return (answer, grew)
            }
            // What builds an order, a view or a section index runs on the fill workers (a
            // million items' order is a core's tenth of a second), not on a request thread.
            var (answer, grew) = builds ? try await FillWorkers.shared.run(render) : try render()
            grew = snapshot.rendered.store(answer, for: answerKey) || grew
            if let key = plan.fill.key, grew || builds {
                await cache.recount(snapshot, for: key)
            }
            return send(answer, to: request, outcome: outcome, age: age, record: record)
        case .upstream, .failed:
            return try unanswered(resolution, record: record)
        case .gone(let current, let outcome):
            record.cache = outcome
            // The first link of the current list is the same kind of answer: a section index or
            // `metadataOnly` one keeps `metadataOnly` (with `groupBy`, a page link would be a 400).
            var first = listRequest
            if first.metadataOnly {
                first.kept.append(QueryParameter(raw: "metadataOnly", key: "metadataOnly", value: "", hasValue: false))
            }
            let links = LinkBuilder(
                base: renderer.linkBase(target), request: first, options: route.paging, snapshot: current.token)
            throw FolioError.snapshotGone(token: listRequest.snapshot ?? "", first: links.url(offset: 0))
        }
    }

    /// A kept answer as sent to `request`, with how the cache answered noted in `record`: where
    /// both modes end.
    func send(
        _ kept: KeptListAnswer, to request: HTTPRequest, outcome: CacheOutcome, age: Int?, record: RequestRecord
    ) -> SentAnswer {
        kept.sending(to: request, cacheStatus: note(outcome, in: record), age: age)
    }

    /// Notes how the cache answered (metrics, access log, span, the answer's `Cache-Status`);
    /// returns its `Cache-Status`, rendered once by `record`.
    @discardableResult
    func note(_ outcome: CacheOutcome, in record: RequestRecord) -> String {
        record.cache = outcome
        return record.cacheStatus ?? outcome.header
    }
}
