import FolioEngine
import HTTPTypes
import NIOCore

extension ListRenderer {
    /// `?groupBy=…&metadataOnly`: the section index of the snapshot.
    ///
    /// `beginsWith`, filters and `q` narrow it (docs/API.md, "Section index" and "Requests"): counts and offsets of the
    /// filtered list, and every url keeps them.
    func sectionIndex(
        _ request: HTTPRequest, route: CompiledRoute, listRequest: ListRequest, groupBy: ListSelection.GroupBy,
        selection: ListSelection, snapshot: Snapshot, target: RequestTarget, grew: inout Bool
    ) -> KeptListAnswer {
        let indexes = snapshot.indexes
        let kept = selection.filteredElements(of: snapshot)
        let sections: [Section]
        let selector: String
        switch groupBy {
        case .alphabetical(let key):
            // Offsets refer to the list sorted by sectionKey: the route's order when it begins
            // with it, otherwise the order of ?sort=sectionKey.
            let byKey =
                route.defaultSort.keys.first.map { $0.field == key && !$0.descending } ?? false
                ? route.defaultSort : SortSpec(keys: [SortKey(key)])
            sections =
                kept.map { indexes.alphabeticalSections(narrowedTo: $0) }
                ?? indexes.alphabeticalSections(order: indexes.order(byKey))
            selector = "beginsWith"
        case .field(let name, let path):
            sections =
                kept.map { indexes.valueSections(field: path, narrowedTo: $0) }
                ?? indexes.valueSections(field: path, order: indexes.order(SortSpec(keys: [SortKey(path)])))
            selector = name
        }
        let bytes = SectionIndexWriter.write(
            sections: sections, base: linkBase(target), kept: listRequest.kept, selector: selector,
            snapshot: snapshot.token)
        let etag = ETag.make(snapshot: snapshot.token, query: listRequest.normalizedQuery, representation: "sections")
        var headers: HTTPFields = [:]
        headers[.xTotalCount] = String(kept?.count ?? snapshot.list.count)
        return finished(
            request, route: route, status: .ok, headers: headers, entity: [.contentType: "application/json"],
            etag: etag, body: bytes, snapshot: snapshot, grew: &grew)
    }
}
