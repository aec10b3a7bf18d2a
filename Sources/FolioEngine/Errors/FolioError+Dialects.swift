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
