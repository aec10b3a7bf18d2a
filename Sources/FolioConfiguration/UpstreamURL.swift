import FolioEngine

/// An absolute `http`/`https` URL of an upstream: `fallbackUpstream`, and the parsed form of a
/// route's `upstream` template.
///
/// Folio only ever contacts configured origins (docs/API.md, "Proxy headers"), so `origin` is
/// what redirects and crawl links are compared with.
public struct UpstreamURL: Sendable, Equatable, CustomStringConvertible {
    /// The text as written.
    public let text: String
    /// `http` or `https`, lowercased.
    public let scheme: String
    /// Lowercased; an IPv6 address without brackets.
    public let host: String
    /// The explicit port, or 80/443 by scheme.
    public let port: Int
    /// Path and query as written (still percent-encoded), `""` when the URL has neither.
    public let path: String

    /// `scheme://host:port`, port always present, IPv6 hosts in brackets.
    public var origin: String {
        let hostText = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(hostText):\(port)"
    }

    /// Parses an absolute `http`/`https` URL with a host and no user info or fragment.
    public init(_ text: String) throws(ValueSyntaxError) {
        try self.init(text, allowingPlaceholders: false)
    }

    /// Parses `text`; a problem quotes it with any user info (`user:password@`) masked, since
    /// problems reach logs (a reload's) and user info is refused anyway.
    init(_ text: String, allowingPlaceholders: Bool) throws(ValueSyntaxError) {
        do {
            try self.init(parsing: text, allowingPlaceholders: allowingPlaceholders)
        } catch {
            let masked = Self.maskingUserInfo(text)
            throw masked == text ? error : ValueSyntaxError(error.message.replacing(text, with: masked))
        }
    }

    /// `text` with whatever stands between `://` and the first `@` of its authority as `***`.
    static func maskingUserInfo(_ text: String) -> String {
        let afterScheme = text.range(of: "://")?.upperBound ?? text.startIndex
        let authorityEnd = text[afterScheme...].firstIndex { "/?#".contains($0) } ?? text.endIndex
        guard let at = text[afterScheme..<authorityEnd].lastIndex(of: "@") else { return text }
        return String(text[..<afterScheme]) + "***" + String(text[at...])
    }

    private init(parsing text: String, allowingPlaceholders: Bool) throws(ValueSyntaxError) {
        let utf8 = Array(text.utf8)
        guard let schemeEnd = Self.find("://", in: utf8) else {
            throw ValueSyntaxError("'\(text)' is not an absolute URL (expected http://HOST...)")
        }
        let scheme = String(decoding: utf8[..<schemeEnd], as: UTF8.self).lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw ValueSyntaxError("scheme '\(scheme)' is not supported (use http or https)")
        }
        let authorityStart = schemeEnd + 3
        var authorityEnd = authorityStart
        while authorityEnd < utf8.count,
            ![UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")]
                .contains(utf8[authorityEnd])
        {
            authorityEnd += 1
        }
        let authority = String(decoding: utf8[authorityStart..<authorityEnd], as: UTF8.self)
        if authority.contains("@") {
            throw ValueSyntaxError("user info in '\(text)' is not supported (send credentials from the client)")
        }
        if authority.contains("{") {
            throw ValueSyntaxError("placeholders are only allowed in the path and query of '\(text)'")
        }
        let (host, explicitPort) = try Self.splitAuthority(authority, in: text)
        self.text = text
        self.scheme = scheme
        self.host = host
        self.port = explicitPort ?? (scheme == "https" ? 443 : 80)
        let rest = utf8[authorityEnd...]
        try Self.checkPathAndQuery(rest, allowingPlaceholders: allowingPlaceholders, in: text)
        self.path = String(decoding: rest, as: UTF8.self)
    }

    public var description: String { text }

    private static func find(_ needle: String, in bytes: [UInt8]) -> Int? {
        let pattern = Array(needle.utf8)
        guard bytes.count >= pattern.count else { return nil }
        for start in 0...(bytes.count - pattern.count)
        where bytes[start..<(start + pattern.count)].elementsEqual(pattern) {
            return start
        }
        return nil
    }

    private static func splitAuthority(_ authority: String, in text: String) throws(ValueSyntaxError) -> (String, Int?)
    {
        var hostText: Substring
        var portText: Substring? = nil
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw ValueSyntaxError("missing ']' in the host of '\(text)'")
            }
            hostText = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else {
                    throw ValueSyntaxError("unexpected '\(after)' after the host of '\(text)'")
                }
                portText = after.dropFirst()
            }
            guard IPAddressText.ipv6(hostText) != nil else {
                throw ValueSyntaxError("'\(hostText)' is not an IPv6 address")
            }
        } else {
            hostText = authority[...]
            if let colon = authority.lastIndex(of: ":") {
                hostText = authority[..<colon]
                portText = authority[authority.index(after: colon)...]
            }
            guard !hostText.isEmpty else { throw ValueSyntaxError("'\(text)' has no host") }
            let valid = hostText.utf8.allSatisfy {
                ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
                    || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z"))
                    || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                    || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_")
            }
            guard valid else { throw ValueSyntaxError("'\(hostText)' is not a valid host name") }
        }
        var port: Int? = nil
        if let portText {
            guard !portText.isEmpty, portText.utf8.count <= 5,
                portText.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let value = Int(portText), (1...65535).contains(value)
            else { throw ValueSyntaxError("'\(portText)' is not a port (1...65535) in '\(text)'") }
            port = value
        }
        return (hostText.lowercased(), port)
    }

    /// RFC 3986 path and query characters; `%` must start an escape. With placeholders,
    /// `{name}` is also allowed (checked again by `UpstreamTemplate`).
    private static func checkPathAndQuery(
        _ bytes: ArraySlice<UInt8>, allowingPlaceholders: Bool, in text: String
    ) throws(ValueSyntaxError) {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "#") {
                throw ValueSyntaxError("'\(text)' has a fragment, which is never sent to a server")
            }
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex, URIText.hexValue(bytes[index + 1]) != nil,
                    URIText.hexValue(bytes[index + 2]) != nil
                else { throw ValueSyntaxError("bad percent-encoding in '\(text)'") }
                index += 3
                continue
            }
            let allowed =
                URIText.isUnreserved(byte)
                || "!$&'()*+,;=:@/?".utf8.contains(byte)
                || (allowingPlaceholders && (byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}")))
            guard allowed else {
                let shown = byte < 0x80 ? "'\(Character(Unicode.Scalar(byte)))'" : "non-ASCII text"
                throw ValueSyntaxError("\(shown) must be percent-encoded in '\(text)'")
            }
            index += 1
        }
    }
}
