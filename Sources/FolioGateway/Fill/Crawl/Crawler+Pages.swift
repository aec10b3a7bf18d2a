import FolioEngine
import Logging
import NIOCore
import Synchronization

/// Fetching single pages: streamed into the indexer (first page, sequential crawls) or buffered
/// (parallel crawls, whose pages arrive out of order), and what a failing page turns into.
extension Crawler {
    enum FirstPage: Sendable {
        /// A 2xx page, already indexed; `bytes` is its decoded size.
        case page(UpstreamHead, IndexedBody, bytes: Int)
        /// A non-2xx answer, passed through like a single fetch's.
        case answer(UpstreamHead, [UInt8])
    }

    /// The first page fails exactly like a single fetch (its errors pass unchanged).
    func fetchFirst(_ url: String, into box: IndexerBox) async throws -> FirstPage {
        let (head, sink) = try await upstream.get(url, headers: headers) { [errorBodyLimit] head in
            IndexingSink(head: head, indexer: box, errorBodyLimit: errorBodyLimit)
        }
        guard (200..<300).contains(head.status) else {
            try UpstreamError.checkPassable(head, url: url)
            return .answer(head, sink.collected)
        }
        return .page(head, try await box.endBody(), bytes: sink.received)
    }

    /// Page `number` (1-based) streamed into the indexer.
    func fetchPage(_ number: Int, url: String, into box: IndexerBox) async throws -> (UpstreamHead, IndexedBody) {
        do {
            let (head, _) = try await upstream.get(url, headers: headers) { head in
                guard (200..<300).contains(head.status) else { throw PageStatus(status: head.status) }
                return IndexingSink(head: head, indexer: box, errorBodyLimit: 0)
            }
            return (head, try await box.endBody())
        } catch {
            throw pageFailure(error, page: number, url: url)
        }
    }

    /// Page `number` kept as received, to be fed in order later; `budget` counts its bytes
    /// against the crawl's `maxUpstreamBytes` as they arrive.
    func fetchBuffered(_ number: Int, url: String, budget: CrawlBudget) async throws -> (UpstreamHead, [ByteBuffer]) {
        do {
            let (head, sink) = try await upstream.get(url, headers: headers) { head in
                guard (200..<300).contains(head.status) else { throw PageStatus(status: head.status) }
                return BufferSink(budget: budget)
            }
            return (head, sink.chunks)
        } catch {
            throw pageFailure(error, page: number, url: url)
        }
    }

    /// Indexes a buffered page.
    func feed(_ chunks: [ByteBuffer], page number: Int, url: String, into box: IndexerBox) async throws -> IndexedBody {
        do {
            for chunk in chunks { try await box.feed(chunk) }
            return try await box.endBody()
        } catch {
            throw pageFailure(error, page: number, url: url)
        }
    }

    /// A later page's failure as the fill's error: 502 naming the page, except for the whole
    /// list's size limits (kept, they are the clearer reason) and cancellation (a crawl timeout).
    func pageFailure(_ error: any Error, page: Int, url: String) -> any Error {
        let detail: String
        var limit: Limit?
        switch error {
        case is CancellationError:
            return error
        case let error as PageStatus:
            detail = "Page \(page) answered \(error.status)."
        case let error as FolioError where error.limit != nil:
            return error
        case let error as FolioError:
            detail = "Page \(page): \(error.detail)"
            limit = error.limit
        case let error as UpstreamError where error.code == "upstream-body-too-large":
            return error.folioError
        case let error as UpstreamError:
            detail = "Page \(page): \(error.folioError.detail)"
            limit = error.folioError.limit
        default:
            detail = "Page \(page) failed."
        }
        logger.warning(
            "upstream page failed",
            metadata: ["folio.page": "\(page)", "folio.upstream_url": "\(url)", "error": "\(error)"])
        return FolioError.crawlPageFailed(detail, limit: limit)
    }
}

/// A later page answered with a non-2xx status.
struct PageStatus: Error {
    let status: Int
}

/// Keeps a page's chunks as they arrived (no copy) until its turn to be indexed.
struct BufferSink: UpstreamBodySink {
    let budget: CrawlBudget
    var chunks: [ByteBuffer] = []

    mutating func receive(_ chunk: ByteBuffer) throws {
        try budget.take(chunk.readableBytes)
        chunks.append(chunk)
    }
}

/// Bytes received over a whole parallel crawl, buffered or indexed, so out-of-order pages
/// waiting for their turn cannot hold more than `maxUpstreamBytes` besides the list.
final class CrawlBudget: Sendable {
    private let used: Mutex<Int>
    let limit: Int

    init(limit: Int, used: Int) {
        self.limit = limit
        self.used = Mutex(used)
    }

    func take(_ bytes: Int) throws(FolioError) {
        let total = used.withLock { used in
            used += bytes
            return used
        }
        guard total <= limit else {
            throw FolioError.upstreamLimit(
                "upstream list exceeds limits.maxUpstreamBytes (\(limit) bytes)", limit: .maxUpstreamBytes)
        }
    }
}
