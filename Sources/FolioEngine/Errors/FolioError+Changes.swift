// MARK: Changes between snapshots

/// The problems of `since` (docs/API.md, "Changes between snapshots"); a token that is gone is
/// `snapshotGone`, as for pinned pages.
extension FolioError {
    /// 409: a list in which an item has no string or number at `idField`, or repeats an earlier
    /// item's id, has no changes; the detail names the first such item (0-based, upstream order).
    public static func idsNotUnique(_ problem: ItemIDs.Problem, idField: String) -> FolioError {
        let what =
            if let earlier = problem.repeats {
                "item \(problem.index) repeats the id of item \(earlier)"
            } else {
                "item \(problem.index) has no string or number at idField '\(DetailText.clip(idField))'"
            }
        return FolioError(
            code: "ids-not-unique", status: 409, title: "Ids not unique",
            detail: "\(what), so this list has no changes to answer; its pages are served as usual")
    }

    /// 400: `since` with a parameter that selects a page or another answer (`offset`, `page`,
    /// `pageSize`, `Range`, `snapshot`, `groupBy`, `metadataOnly`): a change feed covers the
    /// whole view. The same code as the other parameters that ask for two answers at once.
    public static func sinceCombined(with parameter: String) -> FolioError {
        conflictingParameters(
            "since answers the whole view's changes; it cannot be combined with \(DetailText.clip(parameter))")
    }

    /// 400: `since` on a route without `idField`: without ids there are no changes to compute.
    public static let changesUnavailable = FolioError(
        code: "changes-unavailable", status: 400, title: "Changes unavailable",
        detail: "this route has no idField, so it answers no since requests")

    /// 503: one event stream more than `server.watch.maxWatchers` on this replica
    /// (docs/API.md, "Watching a list").
    public static func tooManyWatchers(limit: Int) -> FolioError {
        FolioError(
            code: "too-many-watchers", status: 503, title: "Too many watchers",
            detail: "this replica has \(limit) open event streams, its server.watch.maxWatchers; try again later")
    }
}

// MARK: Dialects that name items by id

/// The problems of the dialects that name items by id (docs/API.md, "More dialects").
extension FolioError {
    /// 502: a `jsonapi`, `strapi` or `stripe` route over a list in which an item is not an object with a string or
    /// number at `idField`, so there is no id to name it by; the detail names the first such item (0-based,
    /// upstream order).
    public static func itemsWithoutID(index: Int, idField: String) -> FolioError {
        FolioError(
            code: "items-without-id", status: 502, title: "Items without id",
            detail:
                "item \(index) of the upstream's list has no string or number at idField '\(DetailText.clip(idField))'")
    }

    /// 400: a cursor (`stripe`'s `starting_after`, `ending_before`) that no item of the snapshot has as its id.
    public static func unknownCursor(name: String, id: String) -> FolioError {
        FolioError(
            code: "unknown-cursor", status: 400, title: "Unknown cursor",
            detail: "\(name) '\(DetailText.clip(id))' is the id of no item of this list")
    }
}
