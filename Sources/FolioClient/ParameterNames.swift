/// The names a route gives its paging parameters (the route's `params` in Folio's config,
/// docs/CONFIG.md). Renames apply on top of the dialect's own names (docs/API.md, "Dialects"): a role left at Folio's
/// default (`pageSize`, `offset`, `page`) keeps the dialect's name for it, e.g. DRF's `offset`
/// or HAL's `size`; a renamed role takes the new name in every dialect that has it.
public struct ParameterNames: Sendable, Hashable {
    public var pageSize: String
    public var offset: String
    public var page: String

    public init(pageSize: String = "pageSize", offset: String = "offset", page: String = "page") {
        self.pageSize = pageSize
        self.offset = offset
        self.page = page
    }

    /// A route without `params`.
    public static let standard = ParameterNames()

    /// The dialect's name `own` for the role that Folio calls `folioDefault`, unless the route
    /// renames that role to `configured`.
    static func name(_ own: String, renamed configured: String, folioDefault: String) -> String {
        configured == folioDefault ? own : configured
    }

    /// The page size's name where the dialect calls it `own`.
    func pageSize(_ own: String) -> String { Self.name(own, renamed: pageSize, folioDefault: "pageSize") }
    /// The offset's name where the dialect calls it `own`.
    func offset(_ own: String) -> String { Self.name(own, renamed: offset, folioDefault: "offset") }
    /// The page number's name where the dialect calls it `own`.
    func page(_ own: String) -> String { Self.name(own, renamed: page, folioDefault: "page") }
}
