import FolioConfiguration

/// `Accept-Encoding` negotiation (RFC 9110 12.5.3), pure so every rule has a table test.
///
/// The highest `q` wins; ties go to the order of `server.compression.encodings`; `q=0` refuses a
/// coding, also when the coding is named again without it; `*` stands for every coding the
/// header does not name; `x-gzip` is `gzip`. `identity` (named, or through `*`) with a higher `q`
/// than the best coding wins (`identity, gzip;q=0.5`); at equal `q` the smaller body is sent. No acceptable
/// coding, or no header at all, means the identity body (never 406).
enum AcceptEncoding {
    /// The coding to send for a request's `Accept-Encoding` field values (joined with `, ` when
    /// repeated), among `offered` in the config's order; nil: identity.
    static func negotiate(_ header: String?, offered: [ContentCoding]) -> ContentCoding? {
        guard let header, !offered.isEmpty else { return nil }
        var named: [String: Double] = [:]
        var wildcard: Double?
        for member in header.split(separator: ",") {
            let parts = member.split(separator: ";")
            guard let first = parts.first else { continue }
            var name = first.trimmingSpaces().lowercased()
            guard !name.isEmpty else { continue }
            // "A recipient SHOULD consider x-gzip to be equivalent to gzip" (RFC 9110 8.4.1.3).
            if name == "x-gzip" { name = "gzip" }
            var q = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingSpaces().lowercased() == "q" else { continue }
                // An unreadable weight refuses the coding rather than guessing.
                q = qValue(pair[1].trimmingSpaces()) ?? 0
            }
            // Named twice, a coding keeps its best weight, unless one of them refuses it.
            func merged(_ old: Double?) -> Double { old.map { $0 == 0 || q == 0 ? 0 : max($0, q) } ?? q }
            if name == "*" {
                wildcard = merged(wildcard)
            } else {
                named[name] = merged(named[name])
            }
        }
        var best: (coding: ContentCoding, q: Double)?
        for coding in offered {
            guard let q = named[coding.token] ?? wildcard, q > 0 else { continue }
            if best == nil || q > best!.q { best = (coding, q) }
        }
        // `*` covers identity too when it is not named (RFC 9110 12.5.3).
        if let best, let identity = named["identity"] ?? wildcard, identity > best.q { return nil }
        return best?.coding
    }

    /// RFC 9110's `qvalue`: `0`, `1`, or up to three decimals; anything else is nil.
    static func qValue<S: StringProtocol>(_ text: S) -> Double? {
        guard let first = text.first, first == "0" || first == "1", text.count <= 5 else { return nil }
        let rest = text.dropFirst()
        if rest.isEmpty { return first == "1" ? 1 : 0 }
        guard rest.first == ".", rest.dropFirst().allSatisfy({ $0 >= "0" && $0 <= "9" }) else { return nil }
        if first == "1" { return rest.dropFirst().allSatisfy { $0 == "0" } ? 1 : nil }
        return Double(String(text))
    }
}
