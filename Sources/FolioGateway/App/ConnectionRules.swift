/// When a request ends its connection (docs/API.md, "Connections"; RFC 9112 9.3, 9.6, 3.2, 6.1).
/// Pure, for table tests: `ConnectionRulesHandler` applies it to every request the decoder
/// reads, and `FrontDoorHandler` never answers a request it would end the connection after.
///
/// After the answer to such a request Folio says `Connection: close`, closes, and reads nothing
/// more from the connection, however the bytes arrive.
enum ConnectionRules {
    /// Why the connection ends after a request's answer.
    enum Ending: Equatable {
        /// `close` in `Connection` or `Proxy-Connection` (any case, alone or in a list), or an
        /// HTTP/1.0 request without `keep-alive`.
        case asked
        /// `Upgrade` is not supported: the request is answered as plain HTTP/1.1 and the
        /// connection closed, since a parser that saw the upgrade reads nothing after it.
        case upgrade
        /// `CONNECT`: answered 405, never forwarded; what follows its head is not HTTP.
        case connect
        /// Framing a proxy must refuse (`FramingFault`): answered 400.
        case framing(FramingFault)
    }

    /// Framing the parser lets through but a proxy refuses with 400 and a close.
    enum FramingFault: String, Equatable {
        case missingHost = "missing-host"
        case twoHosts = "two-hosts"
        case invalidHost = "invalid-host"
        case transferCoding = "transfer-coding"
        case codingOnHTTP10 = "coding-on-http10"
    }

    /// The request's head as the rules need it.
    struct Head {
        var isHTTP10: Bool
        var method: String
        var connection: [String]
        var proxyConnection: [String]
        var hosts: [String]
        var transferEncoding: [String]
        var hasUpgrade: Bool
    }

    /// Why the connection ends after `head`'s answer, or nil when it may go on.
    static func ending(_ head: Head) -> Ending? {
        if let fault = framingFault(head) { return .framing(fault) }
        if head.method == "CONNECT" { return .connect }
        if head.hasUpgrade { return .upgrade }
        if asksToClose(isHTTP10: head.isHTTP10, connection: head.connection, proxyConnection: head.proxyConnection) {
            return .asked
        }
        return nil
    }

    static func framingFault(_ head: Head) -> FramingFault? {
        if head.hosts.count > 1 { return .twoHosts }
        if head.hosts.isEmpty { return head.isHTTP10 ? nil : .missingHost }
        if !HostSyntax.isValid(head.hosts[0]) { return .invalidHost }
        guard !head.transferEncoding.isEmpty else { return nil }
        if head.isHTTP10 { return .codingOnHTTP10 }
        let onlyChunked =
            head.transferEncoding.count == 1
            && String(head.transferEncoding[0].trimmingSpaces()).isASCIICaseInsensitiveEqual(to: "chunked")
        return onlyChunked ? nil : .transferCoding
    }

    /// `close` among the options, or HTTP/1.0 without `keep-alive`.
    static func asksToClose(isHTTP10: Bool, connection: [String], proxyConnection: [String]) -> Bool {
        if hasOption("close", in: connection) || hasOption("close", in: proxyConnection) { return true }
        return isHTTP10 && !hasOption("keep-alive", in: connection)
    }

    /// A connection option (lower case) among comma-separated field values, in any case.
    static func hasOption(_ option: String, in values: [String]) -> Bool {
        values.contains { value in
            value.split(separator: ",").contains { String($0.trimmingSpaces()).isASCIICaseInsensitiveEqual(to: option) }
        }
    }
}

/// RFC 9110 7.2 / RFC 3986 3.2.2: `uri-host [ ":" port ]`, where the host is an IP literal in
/// brackets, or a reg-name (unreserved, percent-encoded and sub-delims characters; an IPv4
/// address is one too). An empty value is valid (RFC 9112 3.2: a target without authority).
enum HostSyntax {
    static func isValid(_ value: String) -> Bool {
        var bytes = Substring(value).utf8[...]
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let literal = bytes[bytes.index(after: bytes.startIndex)..<close]
            guard !literal.isEmpty, literal.allSatisfy(isLiteralByte) else { return false }
            bytes = bytes[bytes.index(after: close)...]
        } else {
            let end = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.endIndex
            guard bytes[..<end].allSatisfy(isRegNameByte) else { return false }
            bytes = bytes[end...]
        }
        guard let colon = bytes.first else { return true }
        guard colon == UInt8(ascii: ":") else { return false }
        let port = bytes.dropFirst()
        return port.count <= 5 && port.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// unreserved / pct-encoded (its `%` and hex digits) / sub-delims.
    private static func isRegNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"), UInt8(ascii: "%"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }

    /// IPv6 (hex digits, `:` and `.`) or IPvFuture (`v`, hex, `.`, then unreserved, sub-delims, `:`).
    private static func isLiteralByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ":") || isRegNameByte(byte) && byte != UInt8(ascii: "%")
    }
}
