import FolioEngine

extension Configuration {
    /// `upstreamPaging:`: how to crawl an upstream that returns its list in pages (docs/CONFIG.md,
    /// "Crawl behaviour worth knowing").
    /// `style` is required once the key is present; the other keys have defaults.
    public struct UpstreamPaging: Sendable, Equatable {
        public enum Style: String, Sendable, Equatable, CaseIterable {
            /// Follow `Link: rel="next"` until there is none.
            case linkHeader
            /// Follow the URL at `nextField` until it is null or missing.
            case nextField
            /// Step `pageParam` from `firstPage`.
            case page
            /// Step `offsetParam` from 0 by the items received.
            case offset
        }

        /// `style` (required).
        public var style: Style
        /// `nextField`: JSON Pointer to the next-page URL in each body. Default `/next`.
        public var nextField: JSONPointer
        /// `pageParam`: the page-number parameter. Default `page`.
        public var pageParam: String
        /// `offsetParam`: the offset parameter. Default `offset`.
        public var offsetParam: String
        /// `sizeParam`: the page-size parameter (styles `page` and `offset`). Default `per_page`.
        public var sizeParam: String
        /// `size`: the page size asked of the upstream. Default `100`.
        public var size: Int
        /// `firstPage`: the first page number (style `page`). Default `1`.
        public var firstPage: Int
        /// `totalField`: JSON Pointer to the total item count in the first body; enables
        /// parallel fetching. Default `null`.
        public var totalField: JSONPointer?
        /// `maxPages`: a crawl fetching more pages fails. Default `10000`.
        public var maxPages: Int
        /// `concurrency`: parallel page fetches with `totalField`, 1...16. Default `4`.
        public var concurrency: Int

        /// The largest `concurrency` accepted.
        public static let maxConcurrency = 16

        public init(style: Style) {
            self.style = style
            nextField = JSONPointer(tokens: ["next"])
            pageParam = "page"
            offsetParam = "offset"
            sizeParam = "per_page"
            size = 100
            firstPage = 1
            totalField = nil
            maxPages = 10_000
            concurrency = 4
        }
    }
}
