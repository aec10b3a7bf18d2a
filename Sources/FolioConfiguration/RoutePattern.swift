import FolioEngine

/// A route's `path`: `/objects`, `/users/{id}/orders`.
///
/// Literal segments are stored percent-decoded, because requests are compared after decoding
/// (`/caf%C3%A9` and `/café` are the same route). A placeholder is a whole segment, so a value
/// can be validated on its own and substituted without touching its neighbours.
public struct RoutePattern: Sendable, Equatable, CustomStringConvertible {
    public enum Segment: Sendable, Equatable {
        /// Matches exactly this decoded text (case-sensitive); `""` only as the last segment,
        /// from a trailing slash.
        case literal(String)
        /// Matches any non-empty segment; the decoded value is the parameter.
        case placeholder(String)
    }

    /// The pattern as written.
    public let text: String
    /// The segments between slashes; `/` alone is one empty literal.
    public let segments: [Segment]

    /// Placeholder names, in order.
    public var placeholderNames: [String] {
        segments.compactMap { if case .placeholder(let name) = $0 { name } else { nil } }
    }

    /// Must start with `/`; no empty segment except a trailing slash; a placeholder is a whole
    /// segment `{name}` with a unique name; no `?`, `#` or bad percent-encoding.
    public init(_ text: String) throws(ValueSyntaxError) {
        guard text.hasPrefix("/") else { throw ValueSyntaxError("a path must start with '/', got '\(text)'") }
        if text.contains("?") || text.contains("#") {
            throw ValueSyntaxError("a path cannot hold '?' or '#' (query parameters are not part of a route)")
        }
        let pieces = text.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        var segments: [Segment] = []
        var names: Set<String> = []
        for (index, piece) in pieces.enumerated() {
            if piece.isEmpty {
                guard index == pieces.count - 1 else {
                    throw ValueSyntaxError("empty segment ('//') in '\(text)'")
                }
                segments.append(.literal(""))
                continue
            }
            if piece.hasPrefix("{"), piece.hasSuffix("}"), piece.count >= 2 {
                let name = piece.dropFirst().dropLast()
                guard PlaceholderName.isValid(name) else {
                    throw ValueSyntaxError(
                        "'\(piece)' is not a placeholder (letters, digits, '_'; not starting with a digit)")
                }
                guard names.insert(String(name)).inserted else {
                    throw ValueSyntaxError("placeholder '{\(name)}' appears twice in '\(text)'")
                }
                segments.append(.placeholder(String(name)))
                continue
            }
            if piece.contains("{") || piece.contains("}") {
                throw ValueSyntaxError(
                    "a placeholder must be a whole segment ('/{name}/'); write a literal brace as %7B or %7D")
            }
            guard let decoded = URIText.decodingPath(piece) else {
                throw ValueSyntaxError("bad percent-encoding in segment '\(piece)'")
            }
            segments.append(.literal(decoded))
        }
        self.text = text
        self.segments = segments
    }

    /// Whether some request path would match both patterns: same number of segments, and at
    /// every position equal literals or two placeholders. (A literal beside a placeholder does
    /// not count: the literal wins there, so the two are told apart.)
    public func matchesSamePaths(as other: RoutePattern) -> Bool {
        guard segments.count == other.segments.count else { return false }
        for (mine, theirs) in zip(segments, other.segments) {
            switch (mine, theirs) {
            case (.literal(let a), .literal(let b)) where a == b: continue
            case (.placeholder, .placeholder): continue
            default: return false
            }
        }
        return true
    }

    public var description: String { text }
}
