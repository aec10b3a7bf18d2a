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
        var host = rest
        var port = 6379
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") {
                guard let number = Int(after.dropFirst()), (1...65535).contains(number) else {
                    throw ValueSyntaxError("bad port '\(after.dropFirst())'")
                }
                port = number
            }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            guard let number = Int(host[host.index(after: colon)...]), (1...65535).contains(number) else {
                throw ValueSyntaxError("bad port '\(host[host.index(after: colon)...])'")
            }
            port = number
            host = host[..<colon]
        }
        guard !host.isEmpty else { throw ValueSyntaxError("the URL has no host") }
        self.init(
            host: String(host), port: port, username: username, password: password, database: database,
            tls: scheme == "rediss")
    }

    /// The URL with the password replaced by `***`.
    public var description: String {
        var text = tls ? "rediss://" : "redis://"
        if username != nil || password != nil {
            text += (username ?? "") + (password == nil ? "" : ":***") + "@"
        }
        text += host.contains(":") ? "[\(host)]" : host
        text += ":\(port)"
        if database != 0 { text += "/\(database)" }
        return text
    }
}
