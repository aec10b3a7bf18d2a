/// RFC 8288 `Link` header values, read as far as a crawl needs: each link's target and its
/// parameters.
///
/// Follows the parsing algorithm of RFC 8288 appendix B.2: links are split on commas outside
/// `<…>` and quoted strings, parameter names are case-insensitive, quoted values may contain
/// `,` `;` and backslash escapes, and only the first `rel` of a link counts. A malformed link is
/// skipped up to the next comma instead of failing the whole header.
public struct LinkHeader: Sendable, Equatable {
    public struct Parameter: Sendable, Equatable {
        /// Lower-cased.
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public struct Link: Sendable, Equatable {
        /// The URI-reference between `<` and `>`, unresolved.
        public var target: String
        public var parameters: [Parameter]

        public init(target: String, parameters: [Parameter]) {
            self.target = target
            self.parameters = parameters
        }

        /// The relation types of the first `rel` parameter, lower-cased (`rel="next last"` has two).
        public var relations: [String] {
            guard let rel = parameters.first(where: { $0.name == "rel" }) else { return [] }
            return rel.value.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        }
    }

    public var links: [Link]

    /// Parses every `Link` field line of a response, in order.
    public init(_ values: [String]) {
        links = values.flatMap { Self.parse(Array($0.utf8)) }
    }

    /// The target of the first link with relation type `next`.
    public var next: String? {
        links.first { $0.relations.contains("next") }?.target
    }

    private static func parse(_ b: [UInt8]) -> [Link] {
        var links: [Link] = []
        var i = 0
        while true {
            while i < b.count, isSpace(b[i]) || b[i] == UInt8(ascii: ",") { i += 1 }
            guard i < b.count else { return links }
            guard b[i] == UInt8(ascii: "<"), let close = b[(i + 1)...].firstIndex(of: UInt8(ascii: ">")) else {
                skipLink(b, &i)
                continue
            }
            var link = Link(target: String(text(b[(i + 1)..<close]).trimmingSpaces()), parameters: [])
            i = close + 1
            while true {
                while i < b.count, isSpace(b[i]) { i += 1 }
                guard i < b.count, b[i] != UInt8(ascii: ",") else { break }
                guard b[i] == UInt8(ascii: ";") else {
                    // Junk after the target or a parameter: keep what was read, drop the rest.
                    skipLink(b, &i)
                    break
                }
                i += 1
                if let parameter = parameter(b, &i) { link.parameters.append(parameter) }
            }
            links.append(link)
        }
    }

    /// One `name[=value]` after a `;`; nil when the name is empty.
    private static func parameter(_ b: [UInt8], _ i: inout Int) -> Parameter? {
        while i < b.count, isSpace(b[i]) { i += 1 }
        let nameStart = i
        while i < b.count, !isSpace(b[i]), !"=;,".utf8.contains(b[i]) { i += 1 }
        let name = text(b[nameStart..<i]).lowercased()
        while i < b.count, isSpace(b[i]) { i += 1 }
        var value = ""
        if i < b.count, b[i] == UInt8(ascii: "=") {
            i += 1
            while i < b.count, isSpace(b[i]) { i += 1 }
            if i < b.count, b[i] == UInt8(ascii: "\"") {
                value = quoted(b, &i)
            } else {
                let valueStart = i
                while i < b.count, !isSpace(b[i]), b[i] != UInt8(ascii: ";"), b[i] != UInt8(ascii: ",") { i += 1 }
                value = text(b[valueStart..<i])
            }
        }
        return name.isEmpty ? nil : Parameter(name: name, value: value)
    }

    /// A quoted string starting at `i` (on its `"`), unescaped; an unterminated one runs to the end.
    private static func quoted(_ b: [UInt8], _ i: inout Int) -> String {
        var out: [UInt8] = []
        i += 1
        while i < b.count, b[i] != UInt8(ascii: "\"") {
            if b[i] == UInt8(ascii: "\\"), i + 1 < b.count { i += 1 }
            out.append(b[i])
            i += 1
        }
        i += 1
        return String(decoding: out, as: UTF8.self)
    }

    /// Moves past the next comma that is outside a quoted string or `<…>`.
    private static func skipLink(_ b: [UInt8], _ i: inout Int) {
        var inQuotes = false
        var inTarget = false
        while i < b.count {
            let byte = b[i]
            i += 1
            if inQuotes {
                if byte == UInt8(ascii: "\\") { i += 1 } else if byte == UInt8(ascii: "\"") { inQuotes = false }
            } else if inTarget {
                if byte == UInt8(ascii: ">") { inTarget = false }
            } else if byte == UInt8(ascii: "\"") {
                inQuotes = true
            } else if byte == UInt8(ascii: "<") {
                inTarget = true
            } else if byte == UInt8(ascii: ",") {
                return
            }
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
}
