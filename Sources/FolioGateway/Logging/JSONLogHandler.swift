import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// swift-log handler writing one JSON object per line (docs/OPERATIONS.md, "Logs"): `time`, `level`, `message`,
/// `label`, then the metadata in key order. Numbers and booleans in metadata stay JSON numbers and
/// booleans, arrays and dictionaries nest, everything else is a string.
public struct JSONLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    let label: String
    let output: LogOutput

    public init(label: String, level: Logger.Level = .info, output: LogOutput = .standardOutput) {
        self.label = label
        self.logLevel = level
        self.output = output
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        // The access log writes a line per request: no merge when the handler has no metadata.
        var fields = event.metadata ?? [:]
        if !metadata.isEmpty { fields = metadata.merging(fields) { _, new in new } }
        var line = "{\"time\":\""
        line.reserveCapacity(384)
        Self.appendTimestamp(to: &line)
        line += "\",\"level\":"
        Self.appendQuoted(event.level.rawValue, to: &line)
        line += ",\"message\":"
        Self.appendQuoted(event.message.description, to: &line)
        line += ",\"label\":"
        Self.appendQuoted(label, to: &line)
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            line += ","
            Self.appendQuoted(key, to: &line)
            line += ":"
            Self.append(value, to: &line)
        }
        line += "}\n"
        output.write(line)
    }

    static func append(_ value: Logger.Metadata.Value, to line: inout String) {
        switch value {
        case .string(let text):
            appendQuoted(text, to: &line)
        case .stringConvertible(let value):
            // Concrete types first: a cast to an existential protocol costs a conformance lookup.
            switch value {
            case let number as Int: line += String(number)
            case let number as Double where number.isFinite: line += number.description
            case let number as any BinaryInteger: line += number.description
            case let flag as Bool: line += flag ? "true" : "false"
            default: appendQuoted(value.description, to: &line)
            }
        case .array(let values):
            line += "["
            for (index, element) in values.enumerated() {
                if index > 0 { line += "," }
                append(element, to: &line)
            }
            line += "]"
        case .dictionary(let members):
            line += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { line += "," }
                appendQuoted(key, to: &line)
                line += ":"
                append(members[key]!, to: &line)
            }
            line += "}"
        }
    }

    /// JSON string literal of `text`.
    static func quoted(_ text: String) -> String {
        var out = ""
        appendQuoted(text, to: &out)
        return out
    }

    /// Bytes a JSON string cannot hold as they are.
    static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    static func appendQuoted(_ text: some StringProtocol, to out: inout String) {
        out += "\""
        // Most values need no escape: append them whole rather than scalar by scalar. Native
        // strings are checked over their bytes in place (a loop without the view's index work).
        let plain =
            text.utf8.withContiguousStorageIfAvailable { !$0.contains(where: needsEscape) }
            ?? !text.utf8.contains(where: needsEscape)
        if plain {
            out += text
            out += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// UTC, millisecond precision: `2026-01-31T12:34:56.789Z`, for lines other than the access
    /// log's (the byte writer below, copied in).
    static func appendTimestamp(to line: inout String) {
        var stamp = LogLine(capacity: 24)
        appendTimestamp(to: &stamp)
        line += String(decoding: stamp.bytes, as: UTF8.self)
    }

    /// The same timestamp into a byte line. Written by hand because the access line of every
    /// request goes through here; the part up to the second is formatted once a second.
    static func appendTimestamp(to line: inout LogLine) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let seconds = Int(now.tv_sec)
        let prefix = secondPrefix.withLock { cached in
            if cached.seconds != seconds { cached = (seconds, formatSecond(seconds)) }
            return cached.text
        }
        line.append(text: prefix)
        let milliseconds = Int(now.tv_nsec) / 1_000_000
        let zero = UInt8(ascii: "0")
        line.append(byte: zero + UInt8(milliseconds / 100))
        line.append(byte: zero + UInt8(milliseconds / 10 % 10))
        line.append(byte: zero + UInt8(milliseconds % 10))
        line.append(byte: UInt8(ascii: "Z"))
    }

    /// The last second formatted, `2026-01-31T12:34:56.`.
    private static let secondPrefix = Mutex<(seconds: Int, text: String)>((-1, ""))

    static func formatSecond(_ seconds: Int) -> String {
        var parts = tm()
        var time = time_t(seconds)
        gmtime_r(&time, &parts)
        var line = ""
        func digits(_ value: Int, _ width: Int) {
            let text = String(value)
            if text.count < width { line += String(repeating: "0", count: width - text.count) }
            line += text
        }
        digits(Int(parts.tm_year) + 1900, 4)
        line += "-"
        digits(Int(parts.tm_mon) + 1, 2)
        line += "-"
        digits(Int(parts.tm_mday), 2)
        line += "T"
        digits(Int(parts.tm_hour), 2)
        line += ":"
        digits(Int(parts.tm_min), 2)
        line += ":"
        digits(Int(parts.tm_sec), 2)
        line += "."
        return line
    }
}

/// Where `JSONLogHandler` writes finished lines. Injected so tests can capture them.
public struct LogOutput: Sendable {
    public let write: @Sendable (String) -> Void
    /// The same for a line's UTF-8 bytes (the access log's lines are built as bytes).
    let writeBytes: @Sendable (UnsafeRawBufferPointer) -> Void

    public init(write: @escaping @Sendable (String) -> Void) {
        self.init(write: write) { bytes in write(String(decoding: bytes, as: UTF8.self)) }
    }

    init(
        write: @escaping @Sendable (String) -> Void, writeBytes: @escaping @Sendable (UnsafeRawBufferPointer) -> Void
    ) {
        self.write = write
        self.writeBytes = writeBytes
    }

    /// stdout through `BufferedLogWriter.standardOutput`: lines are whole and in order, and a
    /// request never waits for stdout.
    public static let standardOutput = LogOutput(
        write: { BufferedLogWriter.standardOutput.append($0) },
        writeBytes: { BufferedLogWriter.standardOutput.append(bytes: $0) })
}

/// Writes all of `bytes` to `descriptor`, retrying interrupted and partial writes; gives up
/// silently on an error (a closed stdout must not take the gateway down).
func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) {
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
        let written = write(descriptor, base + offset, bytes.count - offset)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
    }
}
