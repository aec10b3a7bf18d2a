import FolioEngine

extension Configuration {
    /// One list endpoint: a client path, the upstream it is fetched from, and how it is served.
    public struct Route: Sendable, Equatable {
        /// `name` (required, unique): used in metrics, logs and `POST /purge?route=NAME`.
        public var name: String
        /// `path` (required): literal segments and whole-segment `{name}` placeholders.
        public var path: RoutePattern
        /// `upstream` (required): `http`/`https` URL; `{name}` placeholders of `path` are
        /// substituted percent-encoded.
        public var upstream: UpstreamTemplate
        /// `items`: JSON Pointer (RFC 6901) to the array in each upstream body; `""` (default) is
        /// the body itself.
        public var items: JSONPointer
        /// `sort`: the route's default order, e.g. `[name, -price, id]` (`-` = descending).
        /// Default `[]`: upstream order.
        public var sort: SortSpec
        /// `sortable`: fields a client may sort by with `?sort=field` / `?sort=-field`.
        /// Default `[]`.
        public var sortable: [String]
        /// `sectionKey`: field used by `groupBy=alphabetical` and `beginsWith`. Default `null`.
        public var sectionKey: FieldPath?
        /// `groupable`: fields usable with `groupBy=FIELD` and `?FIELD=value`. Default `[]`.
        public var groupable: [FieldPath]
        /// `filterable`: fields usable with `?FIELD=v`, `?FIELD[gt]=v` … (docs/API.md, "Requests"); groupable
        /// fields are always filterable. Default `[]`.
        public var filterable: [FieldPath] = []
        /// `searchable`: string fields that `?q=` searches (docs/API.md, "Requests"). Default `[]`.
        public var searchable: [FieldPath] = []
        /// `idField`: the field that identifies an item, which `?since=` compares between
        /// snapshots (docs/API.md, "Changes between snapshots"). Default `null`: no changes.
        public var idField: FieldPath? = nil
        /// `type`: the resource type of `jsonapi` bodies and its `fields[TYPE]` (docs/API.md, "More dialects").
        /// Default `null`: the route's name.
        public var type: String? = nil
        /// `vary`: request headers that select different upstream variants (as written).
        /// Default `[]`.
        public var vary: [String]
        /// `forwardQuery`: client query parameters passed to the upstream (and so part of the
        /// cache key). Default `[]`.
        public var forwardQuery: [String]
        /// `authorized`: how requests with `Authorization` or `Cookie` use the cache.
        /// Default `bypass`.
        public var authorized: Authorization
        /// `upstreamPaging`: only for partially paginated upstreams. Default `null`.
        public var upstreamPaging: UpstreamPaging?
        /// `defaults:` merged with this route's own `pageSize`, `maxPageSize`,
        /// `overMaxPageSize`, `params` (per name), `pageBase`, `envelope`, `itemsKey`.
        public var paging: PagingSettings
        /// The global `cache:` merged with this route's `cache:` (`ttl`, `staleWhileRevalidate`,
        /// `staleIfError`, `snapshotRetention`); `maxBytes` is always the global one.
        public var cache: CacheSettings

        public init(
            name: String,
            path: RoutePattern,
            upstream: UpstreamTemplate,
            items: JSONPointer = .root,
            sort: SortSpec = .upstream,
            sortable: [String] = [],
            sectionKey: FieldPath? = nil,
            groupable: [FieldPath] = [],
            vary: [String] = [],
            forwardQuery: [String] = [],
            authorized: Authorization = .bypass,
            upstreamPaging: UpstreamPaging? = nil,
            paging: PagingSettings = PagingSettings(),
            cache: CacheSettings = CacheSettings()
        ) {
            self.name = name
            self.path = path
            self.upstream = upstream
            self.items = items
            self.sort = sort
            self.sortable = sortable
            self.sectionKey = sectionKey
            self.groupable = groupable
            self.vary = vary
            self.forwardQuery = forwardQuery
            self.authorized = authorized
            self.upstreamPaging = upstreamPaging
            self.paging = paging
            self.cache = cache
        }

        /// Folio's own query parameters besides the paging ones (which a route may rename).
        /// A `groupable` or `forwardQuery` name must differ from these and from the route's
        /// effective paging names.
        public static let fixedParameterNames = [
            "sort", "groupBy", "beginsWith", "snapshot", "metadataOnly", "q", "fields",
        ]
    }

    /// `authorized`: the cache partition for requests carrying `Authorization` or `Cookie`.
    public enum Authorization: String, Sendable, Equatable, CaseIterable {
        /// Never stored or served from the shared cache; sliced per request.
        case bypass
        /// Cached per hash of the credential headers.
        case perCredential
        /// One partition for everyone, anonymous requests included.
        case shared
    }
}
