/// Why a Redis command failed. Opaque: switch on `kind`-like predicates, not cases, so new
/// kinds never break callers.
public struct RedisError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        case connection, timeout, protocolError, server
    }

    let kind: Kind
    /// What happened (never the password).
    public let message: String
    /// The server that failed the command (`host:port`), when one is known: the one the
    /// command was sent to, or, for a slot no primary serves now, the slot's last primary.
    public internal(set) var node: String?

    init(kind: Kind, message: String, node: String? = nil) {
        self.kind = kind
        self.message = message
        self.node = node
    }

    /// This error, named as `node`'s unless a server was named already.
    func from(_ node: String) -> Self {
        var error = self
        if error.node == nil { error.node = node }
        return error
    }

    static func connection(_ message: String) -> Self { Self(kind: .connection, message: message) }
    static func timeout(_ message: String) -> Self { Self(kind: .timeout, message: message) }
    static func protocolError(_ message: String) -> Self { Self(kind: .protocolError, message: message) }
    static func server(_ message: String) -> Self { Self(kind: .server, message: message) }
    /// Redis refused a command (an error reply such as `-OOM …` inside a pipeline's replies):
    /// the connection is fine, so this is a server error, not a broken store.
    public static func refused(_ reply: String) -> Self { Self(kind: .server, message: reply) }
    /// A well-formed reply of another kind than the command gives (e.g. no `OK` to a `SET`).
    public static func unexpectedReply(_ reply: String) -> Self {
        Self(kind: .protocolError, message: "unexpected reply \(reply)")
    }

    /// The connection is gone or could not be made (the command may or may not have run).
    public var isConnectionError: Bool { kind == .connection }
    /// No answer within the command timeout; the connection was closed.
    public var isTimeout: Bool { kind == .timeout }
    /// The peer sent bytes that are not RESP2; the connection was closed.
    public var isProtocolError: Bool { kind == .protocolError }
    /// Redis answered with an error (`-ERR …`, `-WRONGTYPE …`); the connection is fine.
    public var isServerError: Bool { kind == .server }

    public var description: String {
        switch kind {
        case .connection: "redis connection: \(message)"
        case .timeout: "redis timeout: \(message)"
        case .protocolError: "redis protocol: \(message)"
        case .server: "redis: \(message)"
        }
    }
}
