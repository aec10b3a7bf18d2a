import NIOCore

/// Reads RESP2 values from a buffer that may hold a partial one.
///
/// `next` consumes a whole value or nothing, so it can be called again when more bytes have
/// arrived. Caps keep a broken or hostile peer from making it allocate without bound.
public struct RESPParser: Sendable {
    /// Largest bulk string accepted (Redis's own cap is 512 MiB).
    public var maxBulkBytes: Int
    /// Largest array accepted, and deepest nesting.
    public var maxArrayCount: Int
    public var maxDepth: Int

    public init(maxBulkBytes: Int = 512 << 20, maxArrayCount: Int = 1 << 20, maxDepth: Int = 8) {
        self.maxBulkBytes = maxBulkBytes
        self.maxArrayCount = maxArrayCount
        self.maxDepth = maxDepth
    }

    /// The next whole value, consumed from `buffer`; nil (nothing consumed) when it is not all
    /// there yet. Throws on bytes that are not RESP2.
    public func next(_ buffer: inout ByteBuffer) throws(RedisError) -> RESPValue? {
        var view = buffer
        guard let value = try parse(&view, depth: 0) else { return nil }
        buffer = view
        return value
    }

    private func parse(_ buffer: inout ByteBuffer, depth: Int) throws(RedisError) -> RESPValue? {
        guard let type = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else { return nil }
        guard let line = Self.line(buffer, from: buffer.readerIndex + 1) else {
            if buffer.readableBytes > 64 << 10 { throw RedisError.protocolError("a header line over 64 KiB") }
            return nil
        }
        let text = line.text
        switch type {
        case UInt8(ascii: "+"):
            buffer.moveReaderIndex(to: line.next)
            return .simpleString(text)
        case UInt8(ascii: "-"):
            buffer.moveReaderIndex(to: line.next)
            return .error(text)
        case UInt8(ascii: ":"):
            guard let value = Int64(text) else { throw RedisError.protocolError("bad integer '\(text.prefix(32))'") }
            buffer.moveReaderIndex(to: line.next)
            return .integer(value)
        case UInt8(ascii: "$"):
            let length = try Self.length(text, of: "bulk")
            if length == -1 {
                buffer.moveReaderIndex(to: line.next)
                return .bulkString(nil)
            }
            guard length <= maxBulkBytes else { throw RedisError.protocolError("a bulk string of \(length) bytes") }
            guard buffer.writerIndex - line.next >= length + 2 else { return nil }
            guard let bytes = buffer.getBytes(at: line.next, length: length),
                buffer.getInteger(at: line.next + length, as: UInt16.self) == 0x0D0A
            else { throw RedisError.protocolError("a bulk string not ended by CRLF") }
            buffer.moveReaderIndex(to: line.next + length + 2)
            return .bulkString(bytes)
        case UInt8(ascii: "*"):
            let count = try Self.length(text, of: "array")
            if count == -1 {
                buffer.moveReaderIndex(to: line.next)
                return .array(nil)
            }
            guard count <= maxArrayCount else { throw RedisError.protocolError("an array of \(count) values") }
            guard depth < maxDepth else { throw RedisError.protocolError("arrays nested deeper than \(maxDepth)") }
            var view = buffer
            view.moveReaderIndex(to: line.next)
            var values: [RESPValue] = []
            values.reserveCapacity(min(count, 1024))
            for _ in 0..<count {
                guard let value = try parse(&view, depth: depth + 1) else { return nil }
                values.append(value)
            }
            buffer = view
            return .array(values)
        default:
            throw RedisError.protocolError("unknown type byte \(type)")
        }
    }

    /// A bulk or array header's length: -1 (null) or more.
    private static func length(_ text: String, of kind: String) throws(RedisError) -> Int {
        guard let length = Int(text), length >= -1 else {
            throw RedisError.protocolError("bad \(kind) length '\(text.prefix(32))'")
        }
        return length
    }

    /// The text before the CRLF that ends the line starting at `start`, and where the next begins.
    private static func line(_ buffer: ByteBuffer, from start: Int) -> (text: String, next: Int)? {
        let view = buffer.readableBytesView
        let offset = start - buffer.readerIndex
        guard offset <= view.count else { return nil }
        var index = view.index(view.startIndex, offsetBy: offset)
        while index < view.endIndex {
            if view[index] == UInt8(ascii: "\r") {
                let after = view.index(after: index)
                guard after < view.endIndex else { return nil }
                guard view[after] == UInt8(ascii: "\n") else { return nil }
                let text = String(decoding: view[view.index(view.startIndex, offsetBy: offset)..<index], as: UTF8.self)
                return (text, buffer.readerIndex + view.distance(from: view.startIndex, to: after) + 1)
            }
            index = view.index(after: index)
        }
        return nil
    }
}

/// Writes commands as RESP2 arrays of bulk strings.
public enum RESPEncoder {
    public static func encode(_ command: [[UInt8]], into buffer: inout ByteBuffer) {
        buffer.writeString("*\(command.count)\r\n")
        for argument in command {
            buffer.writeString("$\(argument.count)\r\n")
            buffer.writeBytes(argument)
            buffer.writeStaticString("\r\n")
        }
    }
}
