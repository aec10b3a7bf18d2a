/// A content coding Folio can compress list answers with (docs/API.md, "Compressed answers").
public enum ContentCoding: String, Sendable, CaseIterable, Hashable {
    case br
    case gzip
    case zstd

    /// The `Content-Encoding` token, also the suffix of the coding's ETag (`W/"…-br"`).
    public var token: String { rawValue }
}
