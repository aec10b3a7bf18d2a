import FolioEngine

/// A route's `upstream`: an `http`/`https` URL whose path and query may hold `{name}`
/// placeholders, filled from the route's path parameters for each request.
///
/// Split into parts once at load time so `render` is a plain concatenation on the hot path.
public struct UpstreamTemplate: Sendable, Equatable, CustomStringConvertible {
    /// The text as written.
    public let text: String
    /// The URL with its placeholders left in place: scheme, host, port and origin are final.
    public let url: UpstreamURL
    /// Placeholder names in order of appearance (a name may repeat).
    public let placeholderNames: [String]
    private let parts: [Part]

    private enum Part: Sendable, Equatable {
        case literal(String)
        case placeholder(String)
    }

    /// `scheme://host:port` of the upstream; the only origin requests for this route may reach.
    public var origin: String { url.origin }

    public init(_ text: String) throws(ValueSyntaxError) {
        url = try UpstreamURL(text, allowingPlaceholders: true)
        var parts: [Part] = []
        var names: [String] = []
        var literal = ""
        var rest = text[...]
        while let open = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            guard rest[open] == "{" else { throw ValueSyntaxError("unmatched '}' in '\(text)'") }
            literal += rest[..<open]
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(where: { $0 == "}" || $0 == "{" }),
                rest[close] == "}"
            else { throw ValueSyntaxError("unclosed '{' in '\(text)'") }
            let name = String(rest[afterOpen..<close])
            guard PlaceholderName.isValid(name) else {
                throw ValueSyntaxError(
                    "'{\(name)}' is not a placeholder name (letters, digits, '_'; not starting with a digit)")
            }
            if !literal.isEmpty { parts.append(.literal(literal)) }
            literal = ""
            parts.append(.placeholder(name))
            names.append(name)
            rest = rest[rest.index(after: close)...]
        }
        literal += rest
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.text = text
        self.parts = parts
        self.placeholderNames = names
    }

    /// The URL for one request: each `{name}` replaced by `parameters[name]` percent-encoded
    /// (RFC 3986 unreserved characters kept), so a value can never add a path segment, a query
    /// or a fragment. A name without a value renders as empty (the loader rejects templates
    /// naming placeholders their path lacks).
    public func render(_ parameters: [String: String]) -> String {
        // Most routes have no placeholder: their URL is the text, shared rather than rebuilt.
        if placeholderNames.isEmpty { return text }
        var result = ""
        for part in parts {
            switch part {
            case .literal(let text):
                result += text
            case .placeholder(let name):
                result += URIText.escapingComponent(parameters[name] ?? "")
            }
        }
        return result
    }

    public var description: String { text }
}

/// The shape shared by route path and upstream placeholders.
enum PlaceholderName {
    /// ASCII letters, digits and `_`, not starting with a digit.
    static func isValid<S: StringProtocol>(_ name: S) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            return false
        }
        return name.utf8.allSatisfy {
            ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
                || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z"))
                || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                || $0 == UInt8(ascii: "_")
        }
    }
}
