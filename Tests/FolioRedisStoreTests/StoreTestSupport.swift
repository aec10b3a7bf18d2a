import FolioRedisStore
import Logging
import Synchronization

/// Log lines captured instead of printed: each line's message and metadata.
final class CapturedLog: Sendable {
    struct Line: Sendable {
        var message: String
        var metadata: Logger.Metadata
    }

    private let lines = Mutex<[Line]>([])

    func logger() -> Logger {
        Logger(label: "folio.test") { _ in Handler(log: self) }
    }

    /// The lines with `message`, in order.
    func messages(_ message: String) -> [Line] {
        lines.withLock { $0.filter { $0.message == message } }
    }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let line = Line(message: "\(event.message)", metadata: metadata.merging(event.metadata ?? [:]) { $1 })
            log.lines.withLock { $0.append(line) }
        }
    }
}

/// Metrics the store's tests do not read.
struct UncountedMetrics: StoreMetrics {
    func storeFailed(_ operation: StoreOperation, node: String?) {}
}
