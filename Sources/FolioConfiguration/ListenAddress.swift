/// Where a listener binds: `0.0.0.0:8080`, `localhost:8080`, `[::1]:8080`.
///
/// `host` is kept without brackets, ready for a bind call. Port 0 asks the system for a free
/// port (tests and `folio demo` use it).
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int

    /// Whether listeners on `self` and `other` could not both bind: one port (not 0, which
    /// picks a free one) and an address in common. That is the same host, or a wildcard and an
    /// address it covers: `0.0.0.0` every IPv4 address, `::` every address (Linux binds it
    /// dual-stack), either of them a host name. `0.0.0.0` and an IPv6 address do not meet.
    public func clashes(with other: ListenAddress) -> Bool {
        guard port != 0, port == other.port else { return false }
        if host == other.host { return true }
        func covers(_ wildcard: String, _ host: String) -> Bool {
            switch wildcard {
            case "::": true
            case "0.0.0.0": !host.contains(":")
            default: false
            }
        }
        return covers(host, other.host) || covers(other.host, host)
    }

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `host:port` or `[ipv6]:port`.
    public init(_ text: String) throws(ValueSyntaxError) {
        let hostPart: Substring
        let portPart: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw ValueSyntaxError("missing ']' after the IPv6 address in '\(text)'")
            }
            hostPart = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else {
                throw ValueSyntaxError("expected ':PORT' after ']' in '\(text)'")
            }
            portPart = rest.dropFirst()
            guard IPAddressText.ipv6(hostPart) != nil else {
                throw ValueSyntaxError("'\(hostPart)' is not an IPv6 address")
            }
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                throw ValueSyntaxError("expected HOST:PORT (e.g. 0.0.0.0:8080), got '\(text)'")
            }
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
            if hostPart.contains(":") {
                throw ValueSyntaxError("an IPv6 host needs brackets, e.g. [::1]:8080; got '\(text)'")
            }
            if hostPart.isEmpty {
                throw ValueSyntaxError("missing host in '\(text)' (0.0.0.0 listens on every interface)")
            }
            try ListenAddress.checkHostName(hostPart)
        }
        guard !portPart.isEmpty, portPart.utf8.count <= 5,
            portPart.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let port = Int(portPart), port <= 65535
        else {
            throw ValueSyntaxError("'\(portPart)' is not a port (0...65535)")
        }
        self.host = String(hostPart)
        self.port = port
    }

    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// A dotted IPv4 address or a DNS name (letters, digits, `-`, `.`).
    private static func checkHostName(_ host: Substring) throws(ValueSyntaxError) {
        let looksNumeric = host.utf8.allSatisfy {
            $0 == UInt8(ascii: ".") || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
        }
        if looksNumeric {
            guard IPAddressText.ipv4(host) != nil else {
                throw ValueSyntaxError("'\(host)' is not an IPv4 address")
            }
            return
        }
        let valid = host.utf8.allSatisfy {
            ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
                || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z"))
                || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
        }
        guard valid, !host.hasPrefix("."), !host.hasPrefix("-") else {
            throw ValueSyntaxError("'\(host)' is not a host name or IP address")
        }
    }
}
