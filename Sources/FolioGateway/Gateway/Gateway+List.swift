import FolioEngine
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1

extension Gateway {
    /// GET/HEAD on a route path: answer a slice of the route's snapshot.
    func serveList(
        _ request: Request, context: GatewayContext, route: CompiledRoute, match: RouteMatch,
        target: RequestTarget, requestID: String
    ) async throws -> Response {
        let plan = try ListPlan(
            request, context: context, route: route, match: match, target: target, requestID: requestID,
            trustedProxies: configuration.server.trustedProxies)
        let listRequest = plan.listRequest
        let resolution = await resolver.resolve(plan.fill, token: listRequest.snapshot, route: route)
        switch resolution {
        case .served(let snapshot, let outcome, let age):
            let cacheStatus = note(outcome, in: context.record)
            let answerKey = KeptListAnswer.key(request.head, route: route)
            if let kept = snapshot.rendered.answer(answerKey, as: KeptListAnswer.self) {
                return kept.response(to: request.head, cacheStatus: cacheStatus, age: age)
            }
            let answer: KeptListAnswer
            var grew = false
            let selection = plan.selection
            if let groupBy = selection.groupBy {
                answer = sectionIndexAnswer(
                    request, route: route, listRequest: listRequest, groupBy: groupBy, selection: selection,
                    snapshot: snapshot, target: target, grew: &grew)
            } else {
                answer = try pageAnswer(
                    request, route: route, listRequest: listRequest, view: selection.view(of: snapshot),
                    snapshot: snapshot, cacheStatus: cacheStatus, target: target, grew: &grew)
            }
            grew = snapshot.rendered.store(answer, for: answerKey) || grew
            if let key = plan.fill.key, grew || selection.buildsIndexes(route: route) {
                await cache.recount(snapshot, for: key)
            }
            return answer.response(to: request.head, cacheStatus: cacheStatus, age: age)
        case .upstream(let answer, let outcome):
            context.record.cache = outcome
            return passThrough(answer, cacheStatus: outcome.header)
        case .failed(let error, let outcome):
            context.record.cache = outcome
            throw error.adding(header: .init("Cache-Status", outcome.header))
        case .gone(let current, let outcome):
            context.record.cache = outcome
            // The first link of the current list is the same kind of answer: a section index or
            // `metadataOnly` one keeps `metadataOnly` (with `groupBy`, a page link would be a 400).
            var first = listRequest
            if first.metadataOnly {
                first.kept.append(QueryParameter(raw: "metadataOnly", key: "metadataOnly", value: "", hasValue: false))
            }
            let links = LinkBuilder(
                base: linkBase(target), request: first, options: route.paging, snapshot: current.token)
            throw FolioError.snapshotGone(token: listRequest.snapshot ?? "", first: links.url(offset: 0))
                .adding(header: .init("Cache-Status", outcome.header))
        }
    }

    /// The answer kept for `request` in a fresh snapshot held in memory, found without waiting;
    /// nil when answering needs anything else (a fill, a render, a store that must be asked).
    func keptListAnswer(
        _ request: HTTPRequest, record: RequestRecord, route: CompiledRoute, match: RouteMatch, target: RequestTarget
    ) -> SentAnswer? {
        // Only the query's plan and the list's key: the upstream request is never built here.
        let fields = request.headerFields
        guard
            let query = try? ListPlan.queryPlan(target.query ?? "", rangeHeader: fields[.range], route: route),
            let key = ListSelector(fields, route: route, match: match, parameters: query.parameters).key(route: route),
            case .served(let snapshot, let outcome, let age) = resolver.resolveHeld(
                key, token: query.listRequest.snapshot, route: route),
            let kept = snapshot.rendered.answer(KeptListAnswer.key(request, route: route), as: KeptListAnswer.self)
        else { return nil }
        return kept.sending(to: request, cacheStatus: note(outcome, in: record), age: age)
    }

    /// Notes how the cache answered (metrics, access log, span); returns its `Cache-Status`.
    private func note(_ outcome: CacheOutcome, in record: RequestRecord) -> String {
        let cacheStatus = outcome.header
        record.cache = outcome
        record.cacheStatus = cacheStatus
        return cacheStatus
    }

    /// Links are relative (path?query) unless `publicBaseURL` is set; never built from `Host`.
    func linkBase(_ target: RequestTarget) -> String {
        (configuration.server.publicBaseURL ?? "") + target.path
    }

    /// Writes the page (or metadata, or 206 range) for a resolved snapshot. `cacheStatus` only
    /// goes into a 416 problem.
    func pageAnswer(
        _ request: Request, route: CompiledRoute, listRequest: ListRequest, view: ListView, snapshot: Snapshot,
        cacheStatus: String, target: RequestTarget, grew: inout Bool
    ) throws -> KeptListAnswer {
        let total = view.count
        var status = HTTPResponse.Status.ok
        var contentRange: String?
        if let range = listRequest.range {
            if range.first >= total {
                throw FolioError.rangeNotSatisfiable(totalCount: total).adding(
                    header: .init("Cache-Status", cacheStatus))
            }
            status = .partialContent
            let last = min(range.first + listRequest.pageSize - 1, total - 1)
            contentRange = ContentRange.satisfied(first: range.first, last: last, total: total)
        }
        let paging = Paging(
            totalCount: total, offset: listRequest.offset, pageSize: listRequest.pageSize,
            pageBase: route.paging.pageBase)
        let links = LinkBuilder(
            base: linkBase(target), request: listRequest, options: route.paging, snapshot: snapshot.token)
        let dialect = route.paging.dialect
        var representation: String
        if listRequest.metadataOnly {
            representation = "metadata"
        } else if listRequest.range != nil {
            representation = route.config.paging.envelope ? "partial-envelope" : "partial-bare"
        } else {
            representation = route.config.paging.envelope ? "envelope" : "bare"
        }
        if dialect != .folio { representation = dialect.name + "-" + representation }
        let etag = ETag.make(
            snapshot: snapshot.token, query: links.url(offset: listRequest.offset), representation: representation)

        var headers: HTTPFields = [:]
        headers.reserveCapacity(14)
        let linkHeader = links.linkHeader(paging)
        if !linkHeader.isEmpty { headers[.link] = linkHeader }
        headers[.xTotalCount] = String(total)
        let itemsKey = route.config.paging.itemsKey
        if contentRange == nil, dialect.contentRangeOnPages, !listRequest.metadataOnly {
            contentRange = ContentRange.page(unit: itemsKey, items: paging.items, total: total)
        }
        var entity: HTTPFields = [.acceptRanges: "items", .contentType: dialect.contentType]
        if let contentRange { entity[.contentRange] = contentRange }

        let bytes = dialect.body(
            DialectPage(
                view: view, paging: paging, links: links, itemsKey: itemsKey,
                fields: listRequest.fields.map(SparseFields.init), metadataOnly: listRequest.metadataOnly,
                envelope: route.config.paging.envelope))
        return listAnswer(
            request, route: route, status: status, headers: headers, entity: entity, etag: etag, body: bytes,
            snapshot: snapshot, grew: &grew)
    }

    /// An upstream error answer, passed back with its end-to-end headers and decoded body.
    func passThrough(_ answer: UpstreamAnswer, cacheStatus: String?) -> Response {
        var headers = HTTPFields()
        for (name, value) in answer.headers {
            if let fieldName = HTTPField.Name(name) { headers.append(HTTPField(name: fieldName, value: value)) }
        }
        if let cacheStatus { headers[.cacheStatus] = cacheStatus }
        headers[.contentLength] = String(answer.body.count)
        return Response(
            status: HTTPResponse.Status(code: answer.status), headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}
