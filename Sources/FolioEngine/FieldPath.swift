/// A field of an item (docs/CONFIG.md, "Grammar and validation"): a top-level member name, or a
/// JSON Pointer (RFC 6901) when it starts with `/`.
///
/// Equality and hashing use the resolved path, not the spelling, so `name` and `/name` are the
/// same field (a sort on one uses the caches and the `sectionKey` rule of the other).
public struct FieldPath: Sendable, Hashable, CustomStringConvertible {
    /// The field as written in the config or the query.
    public let text: String
    /// Unescaped reference tokens, as UTF-8: one token for a member name.
    let tokens: [[UInt8]]

    public init(_ text: String) throws(FolioError) {
        guard !text.isEmpty else {
            throw .invalidParameter("A field name must not be empty.")
        }
        self.text = text
        guard text.utf8.first == UInt8(ascii: "/") else {
            tokens = [Array(text.utf8)]
            return
        }
        var tokens: [[UInt8]] = []
        for raw in text.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            var token: [UInt8] = []
            token.reserveCapacity(raw.count)
            var escaped = false
            for byte in raw {
                if escaped {
                    switch byte {
                    case UInt8(ascii: "0"): token.append(UInt8(ascii: "~"))
                    case UInt8(ascii: "1"): token.append(UInt8(ascii: "/"))
                    default: throw .invalidParameter("JSON Pointer \(text) has an invalid `~` escape.")
                    }
                    escaped = false
                } else if byte == UInt8(ascii: "~") {
                    escaped = true
                } else {
                    token.append(byte)
                }
            }
            if escaped { throw .invalidParameter("JSON Pointer \(text) ends in a lone `~`.") }
            tokens.append(token)
        }
        self.tokens = tokens
    }

    public var description: String { text }

    public static func == (lhs: FieldPath, rhs: FieldPath) -> Bool { lhs.tokens == rhs.tokens }
    public func hash(into hasher: inout Hasher) { hasher.combine(tokens) }
}
