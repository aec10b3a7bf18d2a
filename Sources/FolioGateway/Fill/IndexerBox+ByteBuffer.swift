import FolioEngine
import NIOCore

extension IndexerBox {
    /// `append` for a downloaded chunk, read in place (no copy into an array first).
    func append(_ chunk: ByteBuffer) async throws {
        await indexer.settle()
        try await FillWorkers.shared.run { [self] in
            try chunk.withUnsafeReadableBytes { (bytes) throws(FolioError) in try indexer.appendOverlapped(bytes) }
        }
    }
}
