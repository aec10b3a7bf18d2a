/// One `key=value` piece of a query string, in both its sent and its decoded form.
///
/// Links keep `raw` so that the client's own encoding survives a round trip; all matching
/// (Folio's own parameters, duplicates, filters) uses the decoded `key` and `value`.
public struct QueryParameter: Sendable, Hashable {
    /// The `key=value` text exactly as sent.
    public let raw: Substring
    /// Percent-decoded as UTF-8, `+` read as a space.
    public let key: String
    /// Decoded like `key`; empty when the piece has no `=`.
    public let value: String
    /// Whether the piece had an `=` (`?metadataOnly` has none, `?metadataOnly=` has one).
    public let hasValue: Bool

    public init(raw: Substring, key: String, value: String, hasValue: Bool) {
        self.raw = raw
        self.key = key
        self.value = value
        self.hasValue = hasValue
    }
}
