/// Parsing of textual IP addresses into bytes, without Foundation or libc, so that the same
/// rules apply to config values and to peer addresses on every platform.
enum IPAddressText {
    /// Dotted-quad IPv4 (`192.0.2.1`): four decimal parts 0...255, no leading zeros (they would
    /// read as octal elsewhere), nothing else.
    static func ipv4<S: StringProtocol>(_ text: S) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4)
        var value = 0
        var digits = 0
        var leadingZero = false
        for unit in text.utf8 {
            switch unit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if leadingZero { return nil }
                if digits == 0, unit == UInt8(ascii: "0") { leadingZero = true }
                value = value * 10 + Int(unit - UInt8(ascii: "0"))
                digits += 1
                if value > 255 { return nil }
            case UInt8(ascii: "."):
                guard digits > 0, bytes.count < 3 else { return nil }
                bytes.append(UInt8(value))
                value = 0
                digits = 0
                leadingZero = false
            default:
                return nil
            }
        }
        guard digits > 0, bytes.count == 3 else { return nil }
        bytes.append(UInt8(value))
        return bytes
    }

    /// IPv6 text (RFC 4291 2.2): eight 16-bit hex groups, one `::` run of zeros, an optional
    /// dotted IPv4 tail. A zone (`%eth0`) is not part of the address; callers strip it.
    static func ipv6<S: StringProtocol>(_ text: S) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard !utf8.isEmpty else { return nil }
        var compression: Int? = nil
        var index = 0
        while index + 1 < utf8.count {
            if utf8[index] == UInt8(ascii: ":"), utf8[index + 1] == UInt8(ascii: ":") {
                if compression != nil { return nil }
                compression = index
                index += 2
            } else {
                index += 1
            }
        }
        let words: [UInt16]
        if let at = compression {
            guard let head = groups(utf8[..<at], allowIPv4Tail: false),
                let tail = groups(utf8[(at + 2)...], allowIPv4Tail: true),
                head.count + tail.count <= 7
            else { return nil }
            words = head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
        } else {
            guard let all = groups(utf8[...], allowIPv4Tail: true), all.count == 8 else { return nil }
            words = all
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for word in words {
            bytes.append(UInt8(word >> 8))
            bytes.append(UInt8(word & 0xFF))
        }
        return bytes
    }

    /// Colon-separated hex groups; an empty text is no groups. The last group may be dotted
    /// IPv4, which counts as two groups.
    private static func groups(_ text: ArraySlice<UInt8>, allowIPv4Tail: Bool) -> [UInt16]? {
        if text.isEmpty { return [] }
        let pieces = text.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        var words: [UInt16] = []
        for (index, piece) in pieces.enumerated() {
            if index == pieces.count - 1, allowIPv4Tail, piece.contains(UInt8(ascii: ".")) {
                guard let v4 = ipv4(String(decoding: piece, as: UTF8.self)) else { return nil }
                words.append(UInt16(v4[0]) << 8 | UInt16(v4[1]))
                words.append(UInt16(v4[2]) << 8 | UInt16(v4[3]))
                continue
            }
            guard (1...4).contains(piece.count),
                let word = UInt16(String(decoding: piece, as: UTF8.self), radix: 16)
            else { return nil }
            words.append(word)
        }
        return words
    }

    /// Either family: 4 bytes for IPv4, 16 for IPv6 (zone removed).
    static func parse<S: StringProtocol>(_ text: S) -> [UInt8]? {
        if let v4 = ipv4(text) { return v4 }
        var string = Substring(text)
        if let percent = string.firstIndex(of: "%") { string = string[..<percent] }
        return ipv6(string)
    }

    /// The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`), if it is one.
    static func unmapped(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count == 16,
            bytes[0..<10].allSatisfy({ $0 == 0 }),
            bytes[10] == 0xFF, bytes[11] == 0xFF
        else { return nil }
        return Array(bytes[12..<16])
    }
}
