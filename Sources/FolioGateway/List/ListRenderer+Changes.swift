import FolioEngine
import HTTPTypes
import NIOCore

extension ListRenderer {
    /// A `since` answer (docs/API.md, "Changes between snapshots"): the JSON Patch from `from`
    /// to `new`, its `ETag`, `Link: <…since=NEWTOKEN>; rel="next"`, compressed as pages are.
    func changes(
        _ request: HTTPRequest, route: CompiledRoute, listRequest: ListRequest, changes: ViewChanges, from: String,
        to new: Snapshot, target: RequestTarget, grew: inout Bool
    ) -> KeptListAnswer {
        let body = PatchWriter.body(changes, from: from, to: new.token)
        let etag = ETag.make(
            snapshot: new.token, query: "since=\(from)#" + listRequest.normalizedQuery, representation: "changes")
        var headers: HTTPFields = [:]
        headers[.link] = "<\(sinceURL(target, kept: listRequest.kept, token: new.token))>; rel=\"next\""
        return finished(
            request, route: route, status: .ok, headers: headers, entity: [.contentType: "application/json"],
            etag: etag, body: body, snapshot: new, grew: &grew)
    }

    /// OData's answer to `$deltatoken` (docs/API.md, "OData deltas"): the items added or changed, then the ids that
    /// left the view, and the delta link of the newest snapshot.
    func odataDelta(
        _ request: HTTPRequest, route: CompiledRoute, listRequest: ListRequest, changes: ViewChanges, from: String,
        to new: Snapshot, target: RequestTarget, grew: inout Bool
    ) -> KeptListAnswer {
        let links = LinkBuilder(
            base: linkBase(target), request: listRequest, options: route.paging, snapshot: new.token)
        let body = ODataDelta.body(
            changes, context: (publicBaseURL ?? "") + "/$metadata#" + route.config.name + "/$delta",
            idName: route.config.idField?.text ?? "id", deltaLink: links.deltaURL(token: new.token))
        let etag = ETag.make(
            snapshot: new.token, query: "since=\(from)#" + listRequest.normalizedQuery, representation: "odata-delta")
        var entity: HTTPFields = [.contentType: route.paging.dialect.contentType]
        for header in route.paging.dialect.headers {
            if let name = HTTPField.Name(header.name) { entity[name] = header.value }
        }
        return finished(
            request, route: route, status: .ok, headers: [:], entity: entity, etag: etag, body: body, snapshot: new,
            grew: &grew)
    }

    /// The URL that asks for the view's changes since `token`: the request's view parameters as
    /// sent (`ListRequest.kept`), then `since`.
    func sinceURL(_ target: RequestTarget, kept: [QueryParameter], token: String) -> String {
        var url = linkBase(target)
        url += "?"
        for parameter in kept {
            url += URIText.escapingInvalid(parameter.raw)
            url += "&"
        }
        url += "since="
        url += URIText.escapingComponent(token)
        return url
    }
}
