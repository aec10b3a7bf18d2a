/// One RESP2 value as Redis sends it (https://redis.io/docs/latest/develop/reference/protocol-spec/).
public enum RESPValue: Sendable, Equatable {
    /// `+OK`
    case simpleString(String)
    /// `-ERR …`: the server refused the command.
    case error(String)
    /// `:42`
    case integer(Int64)
    /// `$n` then n bytes; nil for the null bulk string `$-1`.
    case bulkString([UInt8]?)
    /// `*n` then n values; nil for the null array `*-1`.
    case array([RESPValue]?)

    /// The bytes of a bulk or simple string, nil otherwise (and for null).
    public var bytes: [UInt8]? {
        switch self {
        case .bulkString(let bytes): bytes
        case .simpleString(let text): Array(text.utf8)
        default: nil
        }
    }

    /// A bulk or simple string as UTF-8 text.
    public var string: String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

    public var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    public var isNull: Bool {
        switch self {
        case .bulkString(nil), .array(nil): true
        default: false
        }
    }
}
