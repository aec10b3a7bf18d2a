/// An error Folio answers to a client, rendered by the gateway as `application/problem+json`.
///
/// Opaque on purpose: callers switch on `code` (stable, used as the problem `type` and as a
/// metric label), not on cases, so new kinds never break them.
public struct FolioError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Stable short identifier, e.g. `invalid-parameter`.
    public let code: String
    /// HTTP status to answer with.
    public let status: Int
    /// Short human title for the kind.
    public let title: String
    /// What exactly was wrong, for the client.
    public let detail: String
    /// Extra response headers (e.g. `Content-Range` on 416, `Link` on 410).
    public let headers: [HeaderField]
    /// The configured limit this error breached, if any (counted by the gateway).
    public let limit: Limit?

    /// Only the named factories (`FolioError+Request.swift`, `+Upstream`, `+Changes`) create
    /// problems, so every code is listed in one folder.
    package init(
        code: String, status: Int, title: String, detail: String, headers: [HeaderField] = [], limit: Limit? = nil
    ) {
        self.code = code
        self.status = status
        self.title = title
        self.detail = detail
        self.headers = headers
        self.limit = limit
    }

    public var description: String { "\(status) \(code): \(detail)" }

    /// A name/value header pair, kept free of any HTTP library.
    public struct HeaderField: Sendable, Hashable {
        public let name: String
        public let value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }
}
