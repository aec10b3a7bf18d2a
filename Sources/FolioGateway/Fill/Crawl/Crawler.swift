import FolioConfiguration
import FolioEngine
import Foundation
import Logging
import NIOHTTP1

/// Fetches every page of a partially paginated upstream into one list
/// (docs/CONFIG.md, "Crawl behaviour worth knowing").
///
/// One crawl feeds all pages, in upstream order, into one `ListIndexer`, so the list, its limits
/// (`maxItems`, `maxUpstreamBytes`) and its snapshot token span the whole crawl exactly as they
/// would span one big body. A crawl ends with the whole list or fails: a partial list is never
/// returned. Only the first page may answer with an error status, which is handed back as is.
struct Crawler: Sendable {
    let paging: Configuration.UpstreamPaging
    let upstream: any Upstream
    /// The configured upstream URL (placeholders and forwarded query already applied).
    let url: String
    /// Sent on every page: what selects the variant (vary headers, credentials) must not change
    /// between pages.
    let headers: HTTPHeaders
    let items: JSONPointer
    let limits: IndexLimits
    let sort: [String]
    let crawlTimeout: Duration
    /// Most bytes of a first page's error body kept for passing through.
    let errorBodyLimit: Int
    /// What one page's caching headers allow; the list is as fresh as its shortest-lived page.
    let pageFreshness: @Sendable (UpstreamHead) -> Freshness
    let logger: Logger

    /// How a crawl ended when it did not throw.
    enum Outcome: Sendable {
        case list(ItemList, token: String, freshness: Freshness)
        /// The first page's non-2xx answer, with its (capped) body.
        case upstream(UpstreamHead, body: [UInt8])
    }

    /// Crawls within `crawlTimeout` (504 beyond it).
    func run() async throws -> Outcome {
        try await Deadline(after: crawlTimeout).run(orThrow: FolioError.crawlTimeout(crawlTimeout)) {
            try await crawl()
        }
    }

    private func crawl() async throws -> Outcome {
        let nextPointer = paging.style == .nextField ? paging.nextField : nil
        let totalPointer = paging.totalField
        let indexer = IndexerBox(
            ListIndexer(
                items: items, limits: limits, sort: sort, captures: [nextPointer, totalPointer].compactMap { $0 }))
        var state = CrawlState(origin: Origin(url), firstURL: firstURL)

        let first = try await fetchFirst(state.firstURL, into: indexer)
        let body: IndexedBody
        let firstBytes: Int
        switch first {
        case .answer(let head, let errorBody):
            return .upstream(head, body: errorBody)
        case .page(let head, let indexed, let bytes):
            state.record(page: indexed, head: head, freshness: pageFreshness)
            body = indexed
            firstBytes = bytes
        }

        let total = try totalPointer.map { try Self.total(body.value(at: $0), pointer: $0) }
        if let total, paging.style == .page || paging.style == .offset {
            try await fetchRemainingInParallel(
                total: total, firstLength: body.itemCount, firstBytes: firstBytes, into: indexer, state: &state)
        } else {
            try await fetchRemainingInSequence(after: first, nextPointer: nextPointer, into: indexer, state: &state)
        }
        if let total, total != state.items {
            throw FolioError.crawlTotalMismatch(
                "The first page gives a total of \(total) items, but the \(state.pages) pages hold \(state.items).")
        }
        // The store's trimming copy off the cooperative pool too.
        let (list, token) = try await FillWorkers.shared.run { try indexer.finish() }
        return .list(
            list, token: token,
            freshness: state.freshness ?? pageFreshness(UpstreamHead(status: 200, headers: [:], url: url)))
    }

    /// The item count at `totalField`: a non-negative integer.
    private static func total(_ value: IndexedBody.CapturedValue, pointer: JSONPointer) throws -> Int {
        guard case .integer(let total) = value, total >= 0 else {
            throw FolioError.crawlTotalMismatch(
                "The first page has no non-negative integer at totalField '\(pointer)'.")
        }
        return total
    }
}

/// What a crawl has fetched so far.
struct CrawlState: Sendable {
    /// The configured upstream's origin; next links must stay within it.
    let origin: Origin?
    let firstURL: String
    /// Pages fetched (also the number of the last one).
    var pages = 0
    /// Items received over all pages.
    var items = 0
    /// Every URL requested or reached by redirect, to detect loops.
    var visited: Set<String> = []
    /// Items of the first page: page and offset crawls stop at a shorter page.
    var firstLength = 0
    /// The pages' freshness so far, combined: the shortest lifetime rules.
    var freshness: Freshness?

    init(origin: Origin?, firstURL: String) {
        self.origin = origin
        self.firstURL = firstURL
        visited.insert(Self.canonical(firstURL))
    }

    /// The URL as `follow` writes next links, so a link back to a page is recognised.
    static func canonical(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        components.fragment = nil
        return components.string ?? url
    }

    mutating func record(page: IndexedBody, head: UpstreamHead, freshness pageFreshness: (UpstreamHead) -> Freshness) {
        if pages == 0 { firstLength = page.itemCount }
        pages += 1
        items += page.itemCount
        visited.insert(Self.canonical(head.url))
        let received = pageFreshness(head)
        freshness = freshness.map { $0.crawled(with: received) } ?? received.crawled(with: received)
    }
}
