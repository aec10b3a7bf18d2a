import FolioEngine
import HTTPTypes

extension ListEndpoint {
    /// `?since=TOKEN` (docs/API.md, "Changes between snapshots"): how the request's view changed
    /// from snapshot `TOKEN` to the newest one, as a JSON Patch.
    func changesAnswer(
        _ request: HTTPRequest, plan: ListPlan, since token: String, route: CompiledRoute, target: RequestTarget,
        record: RequestRecord
    ) async throws -> SentAnswer {
        let changes = try RouteChanges(route: route)
        let source = try await resolver.resolveChanges(plan.fill, since: token, route: route, check: changes.requireIDs)
        let listRequest = plan.listRequest
        switch source {
        case .pair(let old, let new, let outcome, let age):
            note(outcome, in: record)
            let renderer = renderer
            let answer = try await changes.onWorkers(
                from: old, to: new, selection: plan.selection, fields: listRequest.fields
            ) { computed in
                var grew = false
                return route.paging.dialect == .odata
                    ? renderer.odataDelta(
                        request, route: route, listRequest: listRequest, changes: computed, from: old.token, to: new,
                        target: target, grew: &grew)
                    : renderer.changes(
                        request, route: route, listRequest: listRequest, changes: computed, from: old.token, to: new,
                        target: target, grew: &grew)
            }
            if let key = plan.fill.key {
                // The ids (and a filtered view) are kept with both snapshots: part of the bound.
                await cache.recount(new, for: key)
                if old !== new { await cache.recount(old, for: key) }
            }
            return send(answer, to: request, outcome: outcome, age: age, record: record)
        case .gone(let current, let outcome):
            record.cache = outcome
            throw gone(token, listRequest: listRequest, current: current, route: route, target: target)
        case .unanswered(let resolution):
            return try unanswered(resolution, record: record)
        }
    }

    /// The 410 of a token that is not held, with the current list's first page as `first`.
    func gone(
        _ token: String, listRequest: ListRequest, current: Snapshot, route: CompiledRoute, target: RequestTarget
    ) -> FolioError {
        let links = LinkBuilder(
            base: renderer.linkBase(target), request: listRequest, options: route.paging, snapshot: current.token)
        return .snapshotGone(token: token, first: links.url(offset: 0))
    }

    /// What a request gets when no snapshot answers it: an upstream error passed through, or
    /// the fill's problem.
    func unanswered(_ resolution: Resolution, record: RequestRecord) throws -> SentAnswer {
        switch resolution {
        case .upstream(let answer, let outcome):
            record.cache = outcome
            return SentAnswer(passingThrough: answer)
        case .failed(let error, let outcome):
            record.cache = outcome
            throw error
        case .served(_, let outcome, _), .gone(_, let outcome):
            record.cache = outcome
            throw FolioError.internal
        }
    }
}
