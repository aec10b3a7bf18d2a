import Foundation
import Logging
import Synchronization

/// swift-log handler writing one JSON object per line (SPEC 7): `time`, `level`, `message`,
/// `label`, then the metadata. Writes go to stdout under a lock so lines never interleave.
public struct JSONLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    let label: String

    public init(label: String, level: Logger.Level = .info) {
        self.label = label
        self.logLevel = level
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = metadata
        if let extra = event.metadata { fields.merge(extra) { _, new in new } }
        var line = "{\"time\":\(Self.quoted(Self.timestamp())),\"level\":\(Self.quoted(event.level.rawValue)),"
        line += "\"message\":\(Self.quoted(event.message.description)),\"label\":\(Self.quoted(label))"
        for key in fields.keys.sorted() {
            line += ",\(Self.quoted(key)):\(Self.quoted(fields[key]!.description))"
        }
        line += "}\n"
        Self.output.withLock { _ in
            FileHandle.standardOutput.write(Data(line.utf8))
        }
    }

    private static let output = Mutex(())

    static func timestamp() -> String {
        Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }

    /// JSON string literal of `text`.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
