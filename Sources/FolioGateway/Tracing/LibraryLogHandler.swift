import FolioEngine
import Logging

/// The tracing library's own log lines (an export that failed, a queue that overflowed) on their
/// way to Folio's log, bounded: a `carrier` field is dropped, the error object is not passed on,
/// and the message and every field value are cut at `maxBytes`.
///
/// Folio hands the library nothing from a request but a validated `traceparent`/`tracestate`
/// (`ClientTraceContext`), so none of this should ever fire on a client's input; it keeps a
/// future version of the library from putting what it was given into the log at length.
struct LibraryLogHandler: LogHandler {
    var wrapped: any LogHandler
    static let maxBytes = 256

    init(wrapping logger: Logger) {
        self.wrapped = logger.handler
    }

    var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { wrapped.metadataProvider }
        set { wrapped.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        event.message = "\(DetailText.clip(event.message.description, limit: Self.maxBytes))"
        event.error = nil
        event.metadata = event.metadata.map { fields in
            var bounded: Logger.Metadata = [:]
            for (key, value) in fields where key != "carrier" { bounded[key] = Self.bounded(value) }
            return bounded
        }
        wrapped.log(event: event)
    }

    /// `value` with every text in it cut at `maxBytes`, and at most 16 elements of a list or
    /// members of a dictionary.
    static func bounded(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let text): .string(DetailText.clip(text, limit: maxBytes))
        case .stringConvertible(let convertible):
            convertible.description.utf8.count <= maxBytes
                ? value : .string(DetailText.clip(convertible.description, limit: maxBytes))
        case .array(let values): .array(values.prefix(16).map(bounded))
        case .dictionary(let members):
            .dictionary(Dictionary(uniqueKeysWithValues: members.prefix(16).map { ($0.key, bounded($0.value)) }))
        }
    }
}
