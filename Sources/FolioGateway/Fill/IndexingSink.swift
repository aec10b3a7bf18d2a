import FolioEngine
import NIOCore

/// Receives one upstream body: a 2xx list streams into the fill's indexer as it arrives; any
/// other status is collected (up to `errorBodyLimit`) to be passed back.
///
/// Each body (a single fetch, each streamed page of a crawl) has its own sink, and all of a
/// fill's feed the same `IndexerBox` through an `IndexFeed`. Used by one task at a time (the
/// download's). Indexing may still run when the download ends: the fill awaits `drain()`
/// before it reads the indexer.
final class IndexingSink: UpstreamBodySink, @unchecked Sendable {
    private let feed: IndexFeed?
    private(set) var collected: [UInt8] = []
    /// Bytes received (decoded).
    private(set) var received = 0
    private let errorBodyLimit: Int

    init(head: UpstreamHead, indexer: IndexerBox, errorBodyLimit: Int) {
        self.errorBodyLimit = errorBodyLimit
        guard (200..<300).contains(head.status) else {
            feed = nil
            return
        }
        feed = IndexFeed(box: indexer)
        if let length = UpstreamClient.declaredLength(head.headers) {
            indexer.indexer.reserve(additionalBytes: length)
        }
    }

    /// Whether the body went to the indexer (a 2xx answer).
    var indexes: Bool { feed != nil }

    func receive(_ chunk: ByteBuffer) async throws {
        received += chunk.readableBytes
        if let feed {
            try await feed.receive(chunk)
        } else if collected.count < errorBodyLimit {
            collected.append(contentsOf: chunk.readableBytesView.prefix(errorBodyLimit - collected.count))
        }
    }

    /// Returns once the whole body is indexed; throws what failed to index.
    func drain() async throws {
        try await feed?.drain()
    }
}
