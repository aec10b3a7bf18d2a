import Crypto

/// The snapshot token (docs/API.md, "Snapshots"): equal upstream content gives an equal token on
/// every replica.
public enum SnapshotToken {
    /// Reference (non-streaming) computation: base64url without padding of the first 12 bytes of
    /// SHA-256 over `sortPrefix(sort)`, a newline, then the elements joined by `,`.
    /// `ListIndexer` computes the same value incrementally.
    public static func compute(sort: [String], elements: [[UInt8]]) -> String {
        var hasher = SHA256()
        hasher.update(data: sortPrefix(sort) + [UInt8(ascii: "\n")])
        for (index, element) in elements.enumerated() {
            if index > 0 { hasher.update(data: [UInt8(ascii: ",")]) }
            hasher.update(data: element)
        }
        return text(of: hasher.finalize())
    }

    /// Whether `text` has a token's shape (16 base64url characters): anything else is no
    /// snapshot's, so a shared store need not be asked for it.
    public static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == 16
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    true
                default: false
                }
            }
    }

    /// The route's `sort` as a compact JSON array of strings: `[]`, `["name","-price"]`.
    public static func sortPrefix(_ sort: [String]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (index, field) in sort.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "\""))
            for byte in field.utf8 {
                switch byte {
                case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
                case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
                case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
                case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
                case 0..<0x20:
                    out += Array("\\u00".utf8)
                    out.append(hexDigits[Int(byte >> 4)])
                    out.append(hexDigits[Int(byte & 0xF)])
                default: out.append(byte)
                }
            }
            out.append(UInt8(ascii: "\""))
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    /// The token text of a finished digest.
    static func text(of digest: SHA256.Digest) -> String {
        let bytes = digest.withUnsafeBytes { Array($0.prefix(12)) }
        return base64URL(bytes)
    }

    /// Base64url without padding (RFC 4648 §5).
    static func base64URL(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let remaining = bytes.count - index
            let b0 = UInt32(bytes[index])
            let b1 = remaining > 1 ? UInt32(bytes[index + 1]) : 0
            let b2 = remaining > 2 ? UInt32(bytes[index + 2]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            let emitted = remaining >= 3 ? 4 : remaining + 1
            for position in 0..<emitted {
                out.append(base64URLAlphabet[Int((group >> (18 - 6 * UInt32(position))) & 0x3F)])
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
    private static let base64URLAlphabet: [UInt8] =
        Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
}
