import FolioEngine

extension Configuration {
    /// Caps that keep one client or one upstream from exhausting the gateway (`limits:`).
    public struct Limits: Sendable, Equatable {
        /// `maxUpstreamBytes`: per list, all crawled pages together, after decompression.
        /// Default `256MiB`, at most `4GiB` (lists use 32-bit offsets).
        public var maxUpstreamBytes: Int
        /// `maxItems`: elements per list. Default `5000000`.
        public var maxItems: Int
        /// `maxJSONDepth`: nesting depth of an upstream body. Default `128`.
        public var maxJSONDepth: Int
        /// `upstreamTimeout`: one upstream response, head and body together. Default `30s`.
        public var upstreamTimeout: Duration
        /// `connectTimeout`: establishing an upstream connection. Default `5s`.
        public var connectTimeout: Duration
        /// `crawlTimeout`: a whole crawl of a partially paginated upstream. Default `5m`.
        public var crawlTimeout: Duration
        /// `maxURLBytes`: longer request targets get 414. Default `8KiB`.
        public var maxURLBytes: Int
        /// `maxHeaderBytes`: larger request header blocks get 431. Default `32KiB`.
        public var maxHeaderBytes: Int
        /// `maxHeaderCount`: more request header fields get 431. Default `100`.
        public var maxHeaderCount: Int
        /// `maxRequestBodyBytes`: larger bodies on forwarded unsafe methods get 413.
        /// Default `10MiB`.
        public var maxRequestBodyBytes: Int

        /// The largest `maxUpstreamBytes` accepted: lists index their bytes with `UInt32`.
        public static let maxUpstreamBytesCeiling = IndexLimits.maxBytesCeiling

        /// The defaults `config/folio.yaml` documents.
        public init() {
            maxUpstreamBytes = 256 << 20
            maxItems = 5_000_000
            maxJSONDepth = 128
            upstreamTimeout = .seconds(30)
            connectTimeout = .seconds(5)
            crawlTimeout = .seconds(5 * 60)
            maxURLBytes = 8 << 10
            maxHeaderBytes = 32 << 10
            maxHeaderCount = 100
            maxRequestBodyBytes = 10 << 20
        }
    }
}
