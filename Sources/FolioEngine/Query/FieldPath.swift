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
        do {
            tokens = try JSONPointer(text).tokens.map { Array($0.utf8) }
        } catch {
            throw .invalidParameter(error.detail)
        }
    }

    public var description: String { text }

    public static func == (lhs: FieldPath, rhs: FieldPath) -> Bool { lhs.tokens == rhs.tokens }
    public func hash(into hasher: inout Hasher) { hasher.combine(tokens) }
}
