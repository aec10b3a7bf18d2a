import FolioConfiguration
import FolioEngine
import HTTPTypes
import NIOCore

/// Renders list answers (pages, 206 ranges, `metadataOnly`, section indexes) from a snapshot:
/// dialect bodies, links, `ETag`, compression. It neither resolves nor routes: what it is given
/// (a request, a route, a snapshot) is all it reads, so the same inputs render the same bytes
/// (docs/API.md, "Rendered answers"), which is what lets an answer be kept.
struct ListRenderer: Sendable {
    /// `server.publicBaseURL`: absolute links when set.
    let publicBaseURL: String?
    /// `server.compression`.
    let compression: Configuration.Compression

    /// Links are relative (path?query) unless `publicBaseURL` is set; never built from `Host`.
    func linkBase(_ target: RequestTarget) -> String {
        (publicBaseURL ?? "") + target.path
    }

    /// Writes the page (or metadata, or 206 range) for a resolved snapshot.
    func page(
        _ request: HTTPRequest, route: CompiledRoute, listRequest: ListRequest, view: ListView, snapshot: Snapshot,
        target: RequestTarget, grew: inout Bool
    ) throws -> KeptListAnswer {
        let idField = route.config.idField
        if route.paging.dialect.needsIDs, let idField, let index = snapshot.indexes.firstItemWithoutID(idField) {
            throw FolioError.itemsWithoutID(index: index, idField: idField.text)
        }
        var listRequest = listRequest
        let endingBefore = try resolveCursor(&listRequest, view: view, idField: idField)
        let total = view.count
        var status = HTTPResponse.Status.ok
        var contentRange: String?
        if let range = listRequest.range {
            if range.first >= total {
                throw FolioError.rangeNotSatisfiable(totalCount: total)
            }
            status = .partialContent
            let last = min(range.first + listRequest.pageSize - 1, total - 1)
            contentRange = ContentRange.satisfied(first: range.first, last: last, total: total)
        }
        let paging = Paging(
            totalCount: total, offset: listRequest.offset, pageSize: listRequest.pageSize,
            pageBase: route.paging.pageBase)
        var links = LinkBuilder(
            base: linkBase(target), request: listRequest, options: route.paging, snapshot: snapshot.token)
        if case .cursor? = listRequest.spelling, let idField {
            links.cursorID = { position in CursorIDs.text(view, at: position, field: idField) }
        }
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
        // An `ending_before` page near the start is shorter than its offset and size say.
        if let endingBefore { representation += "-before-\(endingBefore)" }
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
        for header in dialect.headers {
            if let name = HTTPField.Name(header.name) { entity[name] = header.value }
        }
        if let contentRange { entity[.contentRange] = contentRange }

        let bytes = dialect.body(
            DialectPage(
                view: view, paging: paging, links: links, itemsKey: itemsKey,
                fields: listRequest.fields.map(SparseFields.init), metadataOnly: listRequest.metadataOnly,
                envelope: route.config.paging.envelope, idField: idField, resourceType: route.paging.resourceType,
                endingBefore: endingBefore, omitTotal: listRequest.omitTotal, withTotal: listRequest.withTotal,
                metadataContext: (publicBaseURL ?? "") + "/$metadata#" + route.config.name))
        return finished(
            request, route: route, status: status, headers: headers, entity: entity, etag: etag, body: bytes,
            snapshot: snapshot, grew: &grew)
    }

    /// Turns a page named by an item's id (`stripe`'s `starting_after`, `ending_before`; docs/API.md, "More
    /// dialects") into its offset in `view`; returns the position `ending_before` names, which ends the page.
    private func resolveCursor(
        _ request: inout ListRequest, view: ListView, idField: FieldPath?
    ) throws(FolioError) -> Int? {
        guard let cursor = request.cursor, let idField else { return nil }
        switch cursor {
        case .after(let id):
            guard let position = CursorIDs.position(of: id, in: view, field: idField) else {
                throw .unknownCursor(name: "starting_after", id: id)
            }
            request.offset = position + 1
            return nil
        case .before(let id):
            guard let position = CursorIDs.position(of: id, in: view, field: idField) else {
                throw .unknownCursor(name: "ending_before", id: id)
            }
            request.offset = max(0, position - request.pageSize)
            return position
        }
    }
}
