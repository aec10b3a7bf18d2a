import NIOCore

/// The bytes of a Server-Sent Events stream (docs/API.md, "Watching a list"; the WHATWG
/// `text/event-stream` format).
enum EventStreamText {
    /// A comment line that keeps an idle stream alive.
    static let heartbeat = ByteBuffer(string: ": keep-alive\n\n")

    /// `event: changes`, `id: TOKEN`, the JSON as `data:` lines (each line break inside it starts
    /// another `data:` line, which a client joins back with a line feed), then a blank line.
    static func changes(id: String, json: [UInt8]) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(json.count + id.utf8.count + 32)
        buffer.writeString("event: changes\nid: ")
        buffer.writeString(id)
        buffer.writeString("\ndata: ")
        json.withUnsafeBufferPointer { bytes in
            var start = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                guard byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") else {
                    index += 1
                    continue
                }
                buffer.writeBytes(UnsafeBufferPointer(rebasing: bytes[start..<index]))
                buffer.writeString("\ndata: ")
                if byte == UInt8(ascii: "\r"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") {
                    index += 1
                }
                index += 1
                start = index
            }
            buffer.writeBytes(UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]))
        }
        buffer.writeString("\n\n")
        return buffer
    }
}
