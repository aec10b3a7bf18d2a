import FolioEngine
import NIOCore

/// A downloaded chunk is fed to the indexer in place (no copy into an array first).
extension ByteBuffer: IndexerChunk {
    public var readableByteCount: Int { readableBytes }
}
