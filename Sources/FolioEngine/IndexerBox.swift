/// Holds a fill's one indexer, so the sinks of its pages can feed it in place: a second copy of the
/// `ListIndexer` value would make its next append copy the whole store.
///
/// Used by one task at a time: a crawl hands it to one page download after another.
public final class IndexerBox: @unchecked Sendable {
    public var indexer: ListIndexer

    public init(_ indexer: ListIndexer) {
        self.indexer = indexer
    }

    /// Copies and scans the next bytes of the current body on a fill worker (off the
    /// cooperative pool, at a lower priority), once the previous chunk's hashing is over.
    public func append(_ bytes: [UInt8]) async throws {
        await indexer.settle()
        try await FillWorkers.shared.run { [self] in
            try bytes.withUnsafeBytes { try indexer.appendOverlapped($0) }
        }
    }

    /// The list and its token; the box is empty afterwards.
    public func finish() throws(FolioError) -> (list: ItemList, token: String) {
        let indexer = self.indexer
        self.indexer = ListIndexer(items: .root, limits: IndexLimits(maxBytes: 0), sort: [])
        return try indexer.finish()
    }
}
