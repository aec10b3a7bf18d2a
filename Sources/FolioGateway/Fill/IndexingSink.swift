import FolioEngine
import NIOCore

/// Receives one upstream body: a 2xx list streams into the fill's indexer as it arrives; any
/// other status is collected (up to `errorBodyLimit`) to be passed back.
///
/// One sink serves a single fetch and every streamed page of a crawl, which feed the same
/// `IndexerBox`. Used by one task at a time (the download's). Scanning and hashing may still
/// run when the download ends: the fill awaits the box's `drain()` before it reads the indexer.
final class IndexingSink: UpstreamBodySink, @unchecked Sendable {
    private let box: IndexerBox?
    private(set) var collected: [UInt8] = []
    /// Bytes received (decoded).
    private(set) var received = 0
    private let errorBodyLimit: Int

    init(head: UpstreamHead, indexer: IndexerBox, errorBodyLimit: Int) {
        self.errorBodyLimit = errorBodyLimit
        guard (200..<300).contains(head.status) else {
            box = nil
            return
        }
        box = indexer
        if let length = UpstreamClient.declaredLength(head.headers) {
            indexer.reserve(additionalBytes: length)
        }
    }

    var failureWait: (@Sendable () async -> (any Error)?)? {
        guard let box else { return nil }
        return { await box.failure() }
    }

    /// Whether the body went to the indexer (a 2xx answer).
    var indexes: Bool { box != nil }

    func receive(_ chunk: ByteBuffer) async throws {
        received += chunk.readableBytes
        if let box {
            try await box.feed(chunk)
        } else if collected.count < errorBodyLimit {
            collected.append(contentsOf: chunk.readableBytesView.prefix(errorBodyLimit - collected.count))
        }
    }
}
