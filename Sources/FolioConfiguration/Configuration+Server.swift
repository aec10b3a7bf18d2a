extension Configuration {
    /// Listeners, proxy trust and shutdown timing (`server:`).
    public struct Server: Sendable, Equatable {
        /// `listen`: where clients connect. Default `0.0.0.0:8080`.
        public var listen: ListenAddress
        /// `admin`: `/livez`, `/readyz`, `/metrics`, `POST /purge`. Default `127.0.0.1:9090`;
        /// `null` disables the admin listener.
        public var admin: ListenAddress?
        /// `adminToken`: when set, `POST /purge` needs `Authorization: Bearer TOKEN` from every
        /// peer; unset, only loopback peers may purge. `FOLIO_ADMIN_TOKEN` sets it when the file
        /// does not. Default `null`.
        public var adminToken: String?
        /// `publicBaseURL`: prefix for absolute links (e.g. `https://api.example.com`), stored
        /// without a trailing slash. `null` (default): links are relative.
        public var publicBaseURL: String?
        /// `trustedProxies`: peers whose `X-Forwarded-*` / `Forwarded` headers are believed.
        /// Default `[]`.
        public var trustedProxies: [CIDR]
        /// `idleTimeout`: idle client connections are closed (also ends slow header trickles).
        /// Default `60s`.
        public var idleTimeout: Duration
        /// `shutdownDelay`: between failing readiness and closing the listener. Default `0s`.
        public var shutdownDelay: Duration
        /// `drainTimeout`: how long in-flight requests may finish after the listener closes.
        /// Default `10s`.
        public var drainTimeout: Duration
        /// `fallbackUpstream`: origin (with an optional path prefix, no query) that receives
        /// paths matching no route. `null` (default): such paths are 404.
        public var fallbackUpstream: UpstreamURL?
        /// `cors:`.
        public var cors: CORS
        /// `compression:`.
        public var compression: Compression
        /// `watch:`.
        public var watch: Watch

        /// The defaults `config/folio.yaml` documents.
        public init() {
            listen = ListenAddress(host: "0.0.0.0", port: 8080)
            admin = ListenAddress(host: "127.0.0.1", port: 9090)
            adminToken = nil
            publicBaseURL = nil
            trustedProxies = []
            idleTimeout = .seconds(60)
            shutdownDelay = .zero
            drainTimeout = .seconds(10)
            fallbackUpstream = nil
            cors = CORS()
            compression = Compression()
            watch = Watch()
        }
    }

    /// Event streams of a watched list (`server.watch:`; docs/API.md, "Watching a list").
    public struct Watch: Sendable, Equatable {
        /// `maxWatchers`: open event streams on this replica; one more is a `503`. Default `10000`.
        public var maxWatchers: Int
        /// `heartbeat`: a `: keep-alive` comment line on every open stream this often, so
        /// proxies and clients see it alive. Default `15s`.
        public var heartbeat: Duration

        public init(maxWatchers: Int = 10_000, heartbeat: Duration = .seconds(15)) {
            self.maxWatchers = maxWatchers
            self.heartbeat = heartbeat
        }
    }

    /// Compressed list answers (`server.compression:`; docs/API.md, "Compressed answers").
    public struct Compression: Sendable, Equatable {
        /// `encodings`: codings offered, in order of preference (ties in `Accept-Encoding` go
        /// to the earlier one). Default `[br, gzip]`; `[]` turns compression off.
        public var encodings: [ContentCoding]
        /// `minBytes`: smaller bodies go out as they are. Default `1KiB`.
        public var minBytes: Int

        public init(encodings: [ContentCoding] = [.br, .gzip], minBytes: Int = 1024) {
            self.encodings = encodings
            self.minBytes = minBytes
        }
    }

    /// Cross-origin access for browser clients (`server.cors:`).
    public struct CORS: Sendable, Equatable {
        /// `allowOrigins`: origins (`https://app.example.com`) that get
        /// `Access-Control-Allow-Origin`, or `["*"]` for any. Default `[]`: no CORS headers.
        public var allowOrigins: [String]

        public init(allowOrigins: [String] = []) {
            self.allowOrigins = allowOrigins
        }
    }
}
