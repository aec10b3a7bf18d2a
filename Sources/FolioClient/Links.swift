import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The links of one answer (`first`, `next`, …), read from the `Link` header (docs/API.md, "Headers on every page":
/// sent in every dialect) and, where the dialect has them, from the body.
struct Links: Sendable, Equatable {
    var byRel: [String: String] = [:]

    subscript(rel: String) -> String? {
        get { byRel[rel] }
        set { byRel[rel] = newValue }
    }

    /// Parses a `Link` field (RFC 8288 3): `<uri>; rel="first", <uri>; rel="next"`. Parameters
    /// may be quoted (with `,`, `;` or `<` inside) or bare tokens, with spaces around `=`; names
    /// are case-insensitive, and only a link's first `rel` counts (3.3). A `rel` lists one or more
    /// relation types (`rel="next last"`), compared case-insensitively. Where two links share a
    /// relation type, the first wins. Text that is no link is skipped up to the next `,`.
    init(header: String?) {
        guard let header else { return }
        var scanner = LinkFieldScanner(header)
        while let (uri, rel) = scanner.nextLink() {
            guard let rel else { continue }
            for type in rel.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
                let key = type.lowercased()
                if byRel[key] == nil { byRel[key] = uri }
            }
        }
    }

    init() {}

    /// The `snapshot` query parameter of the first link that has one.
    var snapshot: String? {
        for rel in ["first", "next", "prev", "last", "self"] {
            if let uri = byRel[rel], let token = Self.snapshot(in: uri) { return token }
        }
        return nil
    }

    static func snapshot(in uri: String) -> String? {
        URLComponents(string: uri)?.queryItems?.first { $0.name == "snapshot" }?.value
    }
}

/// Reads a `Link` field's values one by one (`Links.init(header:)`).
struct LinkFieldScanner {
    private let scalars: [Unicode.Scalar]
    private var position = 0

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    /// The next link's URI and its first `rel` value (nil without one); nil at the end.
    mutating func nextLink() -> (uri: String, rel: String?)? {
        while position < scalars.count {
            skip { $0 == " " || $0 == "\t" || $0 == "," }
            guard position < scalars.count else { return nil }
            guard scalars[position] == "<" else {
                skipPastValue()
                continue
            }
            // A URI holds no `<` or space (RFC 3986): either ends a link without its `>`, which
            // is skipped; reading on from there keeps the scan linear on any field.
            guard
                let end = scalars[(position + 1)...].firstIndex(where: { $0 == ">" || $0 == "<" || $0 == " " }),
                scalars[end] == ">"
            else {
                position += 1
                skipPastValue()
                continue
            }
            let close = end
            let uri = text(scalars[(position + 1)..<close])
            position = close + 1
            var rel: String?
            while true {
                skipSpaces()
                guard position < scalars.count, scalars[position] == ";" else { break }
                position += 1
                skipSpaces()
                let name = token().lowercased()
                skipSpaces()
                var value = ""
                if position < scalars.count, scalars[position] == "=" {
                    position += 1
                    skipSpaces()
                    value = position < scalars.count && scalars[position] == "\"" ? quoted() : token()
                }
                if name == "rel", rel == nil { rel = value }
            }
            // Anything else before the next link (a stray token) is skipped with it.
            skipPastValue()
            return (uri, rel)
        }
        return nil
    }

    private mutating func skip(while matches: (Unicode.Scalar) -> Bool) {
        while position < scalars.count, matches(scalars[position]) { position += 1 }
    }

    private mutating func skipSpaces() { skip { $0 == " " || $0 == "\t" } }

    /// A bare token or value: up to a space, `;`, `,` or `=`.
    private mutating func token() -> String {
        let start = position
        skip { $0 != " " && $0 != "\t" && $0 != ";" && $0 != "," && $0 != "=" }
        return text(scalars[start..<position])
    }

    /// A quoted string from its opening quote, with `\` escapes, through its closing quote (or
    /// the end of the field).
    private mutating func quoted() -> String {
        var value = String.UnicodeScalarView()
        position += 1
        while position < scalars.count, scalars[position] != "\"" {
            if scalars[position] == "\\", position + 1 < scalars.count { position += 1 }
            value.append(scalars[position])
            position += 1
        }
        position = min(position + 1, scalars.count)
        return String(value)
    }

    /// Skips to the `,` that ends this link value, passing over quoted strings.
    private mutating func skipPastValue() {
        while position < scalars.count, scalars[position] != "," {
            if scalars[position] == "\"" { _ = quoted() } else { position += 1 }
        }
    }

    private func text(_ slice: ArraySlice<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: slice)
        return String(view)
    }
}

extension HTTPURLResponse {
    /// One header's value, looked up case-insensitively.
    func header(_ name: String) -> String? {
        value(forHTTPHeaderField: name)
    }
}
