import HTTPTypes
import NIOCore

/// An HTTP/1.1 response head as bytes, for answers `FrontDoorHandler` writes without NIO's
/// response encoder: the status line, each field as `Name: value`, `Content-Length` when the
/// fields lack it and the status allows a body (what the encoder's framing would add, as a
/// length instead of chunks: the body is whole), `Date`, and the blank line. Field values are
/// HTTP types' already validated ones. A kept answer's status line and fields are bytes made
/// once (`KeptHead`); an event stream's body is chunked instead. Only the fields added per request (`SentAnswer.added`) are written each
/// time.
enum ResponseHeadWriter {
    static func write(
        _ answer: SentAnswer, date: String, bodyBytes: Int = 0, chunked: Bool = false, to buffer: inout ByteBuffer
    ) {
        var hasLength: Bool
        if let kept = answer.keptHead {
            buffer.writeImmutableBuffer(kept.bytes)
            hasLength = kept.hasContentLength
            hasLength = writeFields(answer.headers, from: kept.fieldCount, to: &buffer) || hasLength
        } else {
            writeStatusLine(answer.status, to: &buffer)
            hasLength = writeFields(answer.headers, from: 0, to: &buffer)
        }
        for field in answer.added {
            if field.name == .contentLength { hasLength = true }
            write(field, to: &buffer)
        }
        let status = answer.status
        if chunked {
            buffer.writeStaticString("Transfer-Encoding: chunked\r\n")
        } else if !hasLength, status.code != 304, status.code != 204, status.kind != .informational {
            buffer.writeStaticString("Content-Length: ")
            buffer.writeString(String(bodyBytes))
            buffer.writeStaticString("\r\n")
        }
        buffer.writeStaticString("Date: ")
        buffer.writeString(date)
        buffer.writeStaticString("\r\n\r\n")
    }

    /// The status line and every field (for `KeptHead`).
    static func writeStatusAndFields(_ status: HTTPResponse.Status, _ fields: HTTPFields, to buffer: inout ByteBuffer) {
        writeStatusLine(status, to: &buffer)
        writeFields(fields, from: 0, to: &buffer)
    }

    static func writeStatusLine(_ status: HTTPResponse.Status, to buffer: inout ByteBuffer) {
        if status == .ok {
            buffer.writeStaticString("HTTP/1.1 200 OK\r\n")
        } else {
            buffer.writeString("HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n")
        }
    }

    /// Writes `fields` from the `start`-th on; returns whether one is `Content-Length`.
    @discardableResult
    static func writeFields(_ fields: HTTPFields, from start: Int, to buffer: inout ByteBuffer) -> Bool {
        var hasLength = false
        for index in start..<fields.count {
            let field = fields[index]
            if field.name == .contentLength { hasLength = true }
            write(field, to: &buffer)
        }
        return hasLength
    }

    private static func write(_ field: HTTPField, to buffer: inout ByteBuffer) {
        buffer.writeString(field.name.rawName)
        buffer.writeStaticString(": ")
        buffer.writeString(field.value)
        buffer.writeStaticString("\r\n")
    }
}
