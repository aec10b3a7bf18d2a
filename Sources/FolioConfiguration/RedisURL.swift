import Foundation

/// `cache.redis.url`: `redis://[user:password@]host[:port][/db]`, or `rediss://` for TLS.
///
/// Its description never shows the password, so a config or an error can be logged as is.
public struct RedisURL: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var username: String?
    public var password: String?
    public var database: Int
    public var tls: Bool

    public init(
        host: String, port: Int = 6379, username: String? = nil, password: String? = nil, database: Int = 0,
        tls: Bool = false
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.tls = tls
    }

    public init(_ text: String) throws(ValueSyntaxError) {
        let scheme: String
        var rest: Substring
        if text.hasPrefix("redis://") {
            scheme = "redis"
            rest = text.dropFirst("redis://".count)
        } else if text.hasPrefix("rediss://") {
            scheme = "rediss"
            rest = text.dropFirst("rediss://".count)
        } else {
            throw ValueSyntaxError("expected redis://[user:password@]host[:port][/db] or rediss://…")
        }
        var username: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = userInfo.firstIndex(of: ":") {
                let user = String(userInfo[..<colon]).removingPercentEncoding ?? String(userInfo[..<colon])
                username = user.isEmpty ? nil : user
                let secret = userInfo[userInfo.index(after: colon)...]
                password = String(secret).removingPercentEncoding ?? String(secret)
            } else {
                // `redis://secret@host`: a password without a user, as redis-cli reads it.
                password = String(userInfo).removingPercentEncoding ?? String(userInfo)
            }
        }
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
            if !path.isEmpty {
                guard let number = Int(path), number >= 0 else {
                    throw ValueSyntaxError("the database after '/' must be a number, got '\(path)'")
                }
                database = number
            }
        }
        guard !rest.isEmpty else { throw ValueSyntaxError("the URL has no host") }
        // `host`, `host:port`, `[ipv6]` or `[ipv6]:port`: read as a listen address is.
        let hasPort = rest.hasPrefix("[") ? !rest.hasSuffix("]") : rest.contains(":")
        let address = try ListenAddress(hasPort ? String(rest) : "\(rest):6379")
        guard address.port > 0 else { throw ValueSyntaxError("'0' is not a port of a Redis server") }
        self.init(
            host: address.host, port: address.port, username: username, password: password, database: database,
            tls: scheme == "rediss")
    }

    /// The URL with the password replaced by `***`.
    public var description: String {
        var text = tls ? "rediss://" : "redis://"
        if username != nil || password != nil {
            text += (username ?? "") + (password == nil ? "" : ":***") + "@"
        }
        text += ListenAddress(host: host, port: port).description
        if database != 0 { text += "/\(database)" }
        return text
    }
}
