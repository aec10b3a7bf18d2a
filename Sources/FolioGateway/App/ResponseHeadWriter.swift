import HTTPTypes
import NIOCore

/// An HTTP/1.1 response head as bytes, for answers `FrontDoorHandler` writes without NIO's
/// response encoder: the status line, each field as `Name: value`, `Content-Length` when the
/// fields lack it and the status allows a body (what the encoder's framing would add, as a
/// length instead of chunks: the body is whole), `Date`, and the blank line. Field values are
/// HTTP types' already validated ones. Measures the head first, then copies each string's
/// UTF-8 straight into the buffer: a `writeString` per piece cost a fifth of a cached page's
/// writing.
enum ResponseHeadWriter {
    static func write(
        _ status: HTTPResponse.Status, _ fields: HTTPFields, date: String, bodyBytes: Int, to buffer: inout ByteBuffer
    ) {
        let statusLine = status == .ok ? "HTTP/1.1 200 OK\r\n" : "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n"
        var hasLength = false
        var size = statusLine.utf8.count + "Date: \r\n\r\n".utf8.count + date.utf8.count
        for field in fields {
            if field.name == .contentLength { hasLength = true }
            size += field.name.rawName.utf8.count + field.value.utf8.count + 4
        }
        let addsLength = !hasLength && status.code != 304 && status.code != 204 && status.kind != .informational
        let length = addsLength ? String(bodyBytes) : ""
        if addsLength { size += "Content-Length: \r\n".utf8.count + length.utf8.count }
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: size) { raw in
            var at = 0
            func append(_ text: String) {
                var text = text
                text.withUTF8 { utf8 in
                    guard let start = utf8.baseAddress, !utf8.isEmpty else { return }
                    raw.baseAddress!.advanced(by: at).copyMemory(from: start, byteCount: utf8.count)
                    at += utf8.count
                }
            }
            func append(_ text: StaticString) {
                raw.baseAddress!.advanced(by: at).copyMemory(from: text.utf8Start, byteCount: text.utf8CodeUnitCount)
                at += text.utf8CodeUnitCount
            }
            append(statusLine)
            for field in fields {
                append(field.name.rawName)
                append(": " as StaticString)
                append(field.value)
                append("\r\n" as StaticString)
            }
            if addsLength {
                append("Content-Length: " as StaticString)
                append(length)
                append("\r\n" as StaticString)
            }
            append("Date: " as StaticString)
            append(date)
            append("\r\n\r\n" as StaticString)
            precondition(at == size, "response head measured \(size) bytes, wrote \(at)")
            return at
        }
    }
}
