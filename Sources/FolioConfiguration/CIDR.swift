/// An IP network (`10.0.0.0/8`, `2001:db8::/32`), used for `server.trustedProxies`.
///
/// A bare address (`192.0.2.7`) means that one host. Host bits beyond the prefix are ignored
/// (`10.1.2.3/8` is `10.0.0.0/8`). IPv4-mapped IPv6 peers (`::ffff:192.0.2.7`) match IPv4
/// networks, and IPv4 peers match `::ffff:0:0/96`-style IPv6 networks, because a dual-stack
/// listener reports the same client either way.
public struct CIDR: Sendable, Equatable, CustomStringConvertible {
    /// 4 bytes (IPv4) or 16 (IPv6), host bits cleared.
    public let network: [UInt8]
    /// Leading bits that must match: 0...32 or 0...128.
    public let prefixLength: Int

    /// `nil` when `text` is not an address, optionally followed by `/` and a decimal prefix
    /// length within the family's range.
    public init?(_ text: String) {
        let addressText: Substring
        var prefix: Int? = nil
        if let slash = text.firstIndex(of: "/") {
            addressText = text[..<slash]
            let digits = text[text.index(after: slash)...]
            guard !digits.isEmpty, digits.utf8.count <= 3,
                digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let value = Int(digits)
            else { return nil }
            prefix = value
        } else {
            addressText = text[...]
        }
        // Zones identify a local interface, which a network cannot be tied to.
        guard !addressText.contains("%"), let bytes = IPAddressText.parse(addressText) else { return nil }
        let bits = bytes.count * 8
        let length = prefix ?? bits
        guard length <= bits else { return nil }
        self.network = CIDR.masked(bytes, prefixLength: length)
        self.prefixLength = length
    }

    /// Whether `address` (dotted IPv4 or IPv6 text, a `%zone` ignored) lies in this network.
    /// Text that is not an address is never contained.
    public func contains(_ address: String) -> Bool {
        guard var bytes = IPAddressText.parse(address) else { return false }
        if bytes.count != network.count {
            if network.count == 4, let v4 = IPAddressText.unmapped(bytes) {
                bytes = v4
            } else if network.count == 16, bytes.count == 4 {
                bytes = Array(repeating: 0, count: 10) + [0xFF, 0xFF] + bytes
            } else {
                return false
            }
        }
        return CIDR.masked(bytes, prefixLength: prefixLength) == network
    }

    public var description: String {
        let address: String
        if network.count == 4 {
            address = network.map(String.init).joined(separator: ".")
        } else {
            address = stride(from: 0, to: 16, by: 2)
                .map { String(UInt16(network[$0]) << 8 | UInt16(network[$0 + 1]), radix: 16) }
                .joined(separator: ":")
        }
        return "\(address)/\(prefixLength)"
    }

    private static func masked(_ bytes: [UInt8], prefixLength: Int) -> [UInt8] {
        var result = bytes
        for index in result.indices {
            let keep = min(max(prefixLength - index * 8, 0), 8)
            result[index] &= keep == 0 ? 0 : UInt8(truncatingIfNeeded: 0xFF << (8 - keep))
        }
        return result
    }
}
