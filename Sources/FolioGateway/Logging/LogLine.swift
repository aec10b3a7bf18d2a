/// A log line's UTF-8 bytes, built by appending: the access log's line, written as bytes into
/// `BufferedLogWriter` without a `String`'s append machinery (a third of the line's cost).
struct LogLine {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A String's bytes (named apart from the `StaticString` one, which a literal would
    /// otherwise never reach: the type checker prefers `String` for literals).
    mutating func append(text: String) {
        // One copy of the contiguous bytes (the generic append went byte by byte).
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    /// `text` as a JSON string, escaped as `JSONLogHandler.appendQuoted` escapes it.
    mutating func appendQuoted(_ text: some StringProtocol) {
        let appended = text.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            guard !utf8.contains(where: JSONLogHandler.needsEscape) else { return false }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return true
        }
        if appended != true {
            var quoted = ""
            JSONLogHandler.appendQuoted(text, to: &quoted)
            append(text: quoted)
        }
    }
}
