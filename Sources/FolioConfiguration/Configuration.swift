/// The whole gateway configuration: decoded once from YAML, validated, then frozen.
///
/// Every value here is already checked and has its defaults applied (`config/folio.yaml`); routes
/// carry their effective paging and cache settings, so request handling never merges defaults
/// again. Build one with `ConfigurationLoader`; the initialisers exist for tests and the demo.
public struct Configuration: Sendable, Equatable {
    public var server: Server
    public var logging: LoggingSettings
    public var tracing: Tracing
    public var limits: Limits
    public var cache: CacheSettings
    /// The route defaults as written (already merged into every `Route.paging`).
    public var defaults: PagingSettings
    /// In file order; at least one after loading.
    public var routes: [Route]

    public init(
        server: Server = Server(),
        logging: LoggingSettings = LoggingSettings(),
        tracing: Tracing = Tracing(),
        limits: Limits = Limits(),
        cache: CacheSettings = CacheSettings(),
        defaults: PagingSettings = PagingSettings(),
        routes: [Route]
    ) {
        self.server = server
        self.logging = logging
        self.tracing = tracing
        self.limits = limits
        self.cache = cache
        self.defaults = defaults
        self.routes = routes
    }
}
