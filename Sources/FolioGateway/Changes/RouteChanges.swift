import FolioEngine

/// The changes between two snapshots of one route's list, as one view of it sees them
/// (docs/API.md, "Changes between snapshots"): the one piece every answer that diffs shares —
/// a `since` answer, each event of a watch stream ("Watching a list"), a dialect's delta link.
///
/// It reads each snapshot's ids once (`SnapshotIndexes.itemIDs`, kept with the snapshot and
/// counted in `cache.maxBytes`) and hands the two views to the engine's `ViewChanges`; what the
/// caller writes from the result (`PatchWriter`, or a dialect's own body) is the caller's.
/// Snapshots come from wherever the caller found them (`SnapshotResolver.resolveChanges`).
struct RouteChanges: Sendable {
    /// The route's `idField`.
    let idField: FieldPath

    /// Throws `changes-unavailable` (400) on a route without `idField`.
    init(route: CompiledRoute) throws(FolioError) {
        guard let idField = route.config.idField else { throw .changesUnavailable }
        self.idField = idField
    }

    /// The ids of `snapshot`'s items, read on first use and kept with it. Whoever gets them on
    /// a snapshot the store holds recounts it (`FillCoalescer.recount`): they count in the bound.
    func ids(of snapshot: Snapshot) -> ItemIDs {
        snapshot.indexes.itemIDs(idField)
    }

    /// Throws `ids-not-unique` (409) when `snapshot`'s list has no ids (an item without one, or
    /// repeating an earlier one): checked on the newest snapshot before the token is looked at,
    /// so such a list answers 409 whatever the token.
    func requireIDs(_ snapshot: Snapshot) async throws(FolioError) {
        // Reading a large list's ids the first time is a fill's kind of work: a fill worker's.
        let read =
            Self.isLarge(snapshot.list.count)
            ? await FillWorkers.shared.run { [self] in self.ids(of: snapshot) } : ids(of: snapshot)
        try read.requireUnique()
    }

    /// `changes(from:to:selection:fields:)`, with what `write` makes of it: on a fill worker
    /// for large lists (reading ids, diffing and writing a large patch is CPU work no request
    /// thread should do), where it is for small ones (the hop would cost more than the work).
    func onWorkers<T: Sendable>(
        from old: Snapshot, to new: Snapshot, selection: ListSelection, fields: [String]?,
        write: @escaping @Sendable (ViewChanges) -> T
    ) async throws(FolioError) -> T {
        let work = { @Sendable [self] () -> Result<T, FolioError> in
            Result { () throws(FolioError) -> T in
                write(try changes(from: old, to: new, selection: selection, fields: fields))
            }
        }
        let large = Self.isLarge(old.list.count + new.list.count)
        return try (large ? await FillWorkers.shared.run(work) : work()).get()
    }

    /// Lists of more items than this are diffed on the fill workers.
    static func isLarge(_ items: Int) -> Bool { items > 50_000 }

    /// How the view changed from `old` to `new`. `view` cuts a snapshot's list as the request
    /// asks (sort, filters, `q`, `beginsWith`: `ListSelection.view(of:)` for Folio's requests,
    /// or a dialect's own), `form` writes each item (`fields`, or a dialect's item shape).
    /// Throws `ids-not-unique` (409) when either list has no ids.
    func changes(
        from old: Snapshot, to new: Snapshot, view: (Snapshot) -> ListView, form: ItemForm
    ) throws(FolioError) -> ViewChanges {
        let oldIDs = ids(of: old)
        let newIDs = ids(of: new)
        try newIDs.requireUnique()
        try oldIDs.requireUnique()
        return try ViewChanges(from: view(old), ids: oldIDs, to: view(new), ids: newIDs, form: form)
    }

    /// `changes` for a Folio list request: its selection's view, its `fields`.
    func changes(
        from old: Snapshot, to new: Snapshot, selection: ListSelection, fields: [String]?
    ) throws(FolioError) -> ViewChanges {
        try changes(
            from: old, to: new, view: { selection.view(of: $0) }, form: .fields(fields.map(SparseFields.init)))
    }
}
