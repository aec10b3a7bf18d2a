/// RFC 3986 percent-encoding on UTF-8 bytes, the one place Folio encodes and decodes it: link
/// text, section links, query parsing, route paths, upstream placeholders. No Foundation: it
/// runs on every request.
public enum URIText {
    /// Leaves valid URI text as it is (the client's own encoding survives) and encodes only bytes
    /// no URI may hold (controls, space, `"<>\^`{|}`, non-ASCII), so links stay safe inside
    /// `<…>` in a `Link` header.
    public static func escapingInvalid(_ text: Substring) -> String {
        guard text.utf8.contains(where: { !isURIByte($0) }) else { return String(text) }
        return encode(text.utf8) { isURIByte($0) }
    }

    /// Encodes everything but RFC 3986 unreserved characters as `%XX` (uppercase hex): for
    /// names and values Folio writes, and path placeholders it fills in.
    public static func escapingComponent(_ text: String) -> String {
        guard text.utf8.contains(where: { !isUnreserved($0) }) else { return text }
        return encode(text.utf8) { isUnreserved($0) }
    }

    /// Decodes `%XX` escapes (`+` stays `+`: this is for paths). `nil` when an escape is
    /// malformed or the result is not valid UTF-8.
    public static func decodingPath(_ text: Substring) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// `text` with its escapes normalized as RFC 3986 6.2.2.1 and 6.2.2.2 allow without changing
    /// what it means: an escaped unreserved character is decoded, other escapes are written in
    /// upper case. Everything else, a malformed escape included, stays as it is.
    public static func normalizingEscapes(_ text: Substring) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            else {
                out.append(bytes[index])
                index += 1
                continue
            }
            let byte = high << 4 | low
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hexDigits[Int(high)], hexDigits[Int(low)]]
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func encode(_ bytes: some Collection<UInt8>, keeping keep: (UInt8) -> Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 3)
        for byte in bytes {
            if keep(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0xF)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Upper-case hex digits by value, for escapes Folio writes.
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// The value of one hex digit, either case.
    public static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// ALPHA / DIGIT / `-` / `.` / `_` / `~`.
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// Bytes allowed somewhere in a URI (RFC 3986 reserved, unreserved and `%`).
    public static func isURIByte(_ byte: UInt8) -> Bool {
        if isUnreserved(byte) { return true }
        return switch byte {
        case UInt8(ascii: "%"), UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"),
            UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "@"), UInt8(ascii: "!"), UInt8(ascii: "$"),
            UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"),
            UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            true
        default: false
        }
    }
}
