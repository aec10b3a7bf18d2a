import FolioEngine

extension Configuration {
    /// How pages are cut and shaped (`defaults:`, and the same keys on a route).
    ///
    /// `Configuration.defaults` holds the file's `defaults:`; `Route.paging` holds the result of
    /// merging a route's own keys over them.
    public struct PagingSettings: Sendable, Equatable {
        /// `pageSize`: items per page when the client names none. Default `25`, at least 1.
        public var pageSize: Int
        /// `maxPageSize`: the largest page a client may ask for. Default `500`, at least `pageSize`.
        public var maxPageSize: Int
        /// `overMaxPageSize`: what a larger request gets. Default `clamp`.
        public var overMaxPageSize: OverMaxPolicy
        /// `params`: the query parameter names for paging (renames). Default
        /// `{pageSize: pageSize, offset: offset, page: page}`.
        public var params: ParamNames
        /// `pageBase`: the first page number for `page`, 0 or 1. Default `0`.
        public var pageBase: Int
        /// `envelope`: `false` leaves the body a bare array of the page's items, metadata in
        /// headers only. Default `true`.
        public var envelope: Bool
        /// `itemsKey`: the name of the items member of the envelope. Default `objects`.
        public var itemsKey: String
        /// `dialect`: the request parameters and body shape clients expect (docs/API.md, "Dialects"): `folio`,
        /// `drf`, `hal`, `jsonserver`, `simplerest` or `laravel`. Default `folio`.
        public var dialect: Dialect

        /// The defaults `config/folio.yaml` documents.
        public init() {
            pageSize = 25
            maxPageSize = 500
            overMaxPageSize = .clamp
            params = ParamNames()
            pageBase = 0
            envelope = true
            itemsKey = "objects"
            dialect = .folio
        }
    }

    /// `overMaxPageSize`: answer a too-large `pageSize` at the maximum, or refuse it with 400.
    /// The engine's type, so the config is handed to request parsing as it is.
    public typealias OverMaxPolicy = OverMaxPageSize

    /// `params:`: the names clients use for Folio's paging parameters (the engine's type).
    public typealias ParamNames = ParameterNames
}
