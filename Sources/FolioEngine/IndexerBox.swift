import FolioEngine
import NIOCore

/// Holds a fill's one indexer, so the sinks of its pages can feed it in place: a second copy of the
/// `ListIndexer` value would make its next append copy the whole store.
///
/// Used by one task at a time: a crawl hands it to one page download after another.
final class IndexerBox: @unchecked Sendable {
    var indexer: ListIndexer

    init(_ indexer: ListIndexer) {
        self.indexer = indexer
    }

    /// Copies and scans the next chunk of the current body on a fill worker (off the
    /// cooperative pool, at a lower priority), once the previous chunk's hashing is over.
    func append(_ chunk: ByteBuffer) async throws {
        await indexer.settle()
        try await FillWorkers.shared.run { [self] in
            try chunk.withUnsafeReadableBytes { (bytes) throws(FolioError) in try indexer.appendOverlapped(bytes) }
        }
    }

    func finish() throws(FolioError) -> (list: ItemList, token: String) {
        let indexer = self.indexer
        self.indexer = ListIndexer(items: .root, limits: IndexLimits(maxBytes: 0), sort: [])
        return try indexer.finish()
    }
}
