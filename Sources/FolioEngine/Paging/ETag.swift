/// Weak entity tags for list answers (docs/API.md, "Headers on every page").
///
/// Derived only from data every replica shares (FNV-1a 64, never Swift's per-process `Hasher`),
/// so a client spread over several sidecars keeps getting 304s.
public enum ETag {
    /// `W/"<token>-<16 hex>"`, the hex hashing the token, the normalized query
    /// (`ListRequest.normalizedQuery`) and the representation name
    /// (`envelope`, `bare`, `metadata`, `partial`).
    public static func make(snapshot: String, query: String, representation: String) -> String {
        var hash = FNV1a64()
        hash.add(snapshot)
        hash.add(query)
        hash.add(representation)
        let token = tagSafe(snapshot)
        var tag = String()
        tag.reserveCapacity(token.utf8.count + 21)
        tag += "W/\""
        tag += token
        tag += "-"
        tag += String(unsafeUninitializedCapacity: 16) { buffer in
            let digits: StaticString = "0123456789abcdef"
            for index in 0..<16 {
                buffer[index] = digits.utf8Start[Int((hash.value >> UInt64(60 - 4 * index)) & 0xF)]
            }
            return 16
        }
        tag += "\""
        return tag
    }

    /// The tag of `etag`'s representation sent with a content coding: `W/"…-br"` (docs/API.md,
    /// "Compressed answers"), so a cache never answers one coding's `If-None-Match` with another
    /// coding's body.
    public static func coded(_ etag: String, _ coding: String) -> String {
        guard etag.hasSuffix("\"") else { return etag }
        return String(etag.dropLast()) + "-" + coding + "\""
    }

    /// `If-None-Match` weak comparison: `*` matches anything; otherwise any listed tag whose
    /// opaque part equals ours, `W/` ignored on both sides. Unquoted members are tolerated and
    /// compared with the opaque part's inside.
    public static func matches(ifNoneMatch: String, etag: String) -> Bool {
        let field = ifNoneMatch.trimmingOWS()
        if field == "*" { return true }
        let ours = opaque(Substring(etag).trimmingOWS())
        var rest = Substring(field)
        while let (member, remainder) = nextMember(rest) {
            if opaque(member) == ours { return true }
            rest = remainder
        }
        return false
    }

    /// The tag without its weakness prefix, quotes kept.
    private static func opaque(_ tag: Substring) -> Substring {
        var tag = tag
        if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
        return tag
    }

    /// Splits one member off a list. Commas are legal inside an opaque-tag, so a quoted member
    /// runs to its closing quote rather than to the next comma.
    private static func nextMember(_ list: Substring) -> (Substring, Substring)? {
        var rest = list.drop { $0 == " " || $0 == "\t" || $0 == "," }
        guard !rest.isEmpty else { return nil }
        let start = rest.startIndex
        var cursor = rest.hasPrefix("W/") ? rest.index(start, offsetBy: 2) : start
        if cursor < rest.endIndex, rest[cursor] == "\"" {
            cursor = rest.index(after: cursor)
            guard let close = rest[cursor...].firstIndex(of: "\"") else {
                return (rest[start...], rest[rest.endIndex...])
            }
            let end = rest.index(after: close)
            return (rest[start..<end], rest[end...])
        }
        let end = rest[cursor...].firstIndex(of: ",") ?? rest.endIndex
        let member = rest[start..<end].trimmingOWS()
        rest = rest[end...]
        // A bare member is read as if it were quoted.
        return (Substring(quoteBare(member)), rest)
    }

    private static func quoteBare(_ member: Substring) -> String {
        member.hasPrefix("W/") ? "W/\"\(member.dropFirst(2))\"" : "\"\(member)\""
    }

    /// Tokens are base64url; anything else that slipped in is made legal for an opaque-tag.
    private static func tagSafe(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 <= 0x20 || $0 == 0x7F }) else { return token }
        return String(token.map { $0 == "\"" || $0.asciiValue.map { $0 <= 0x20 || $0 == 0x7F } == true ? "_" : $0 })
    }
}

/// FNV-1a, 64 bits: tiny, stable across platforms and processes.
struct FNV1a64 {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ text: String) {
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01B3
        }
        // A separator byte no UTF-8 text holds keeps ("ab","c") apart from ("a","bc").
        value ^= 0xFF
        value &*= 0x0000_0100_0000_01B3
    }
}
