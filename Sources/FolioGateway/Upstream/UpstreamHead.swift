import NIOHTTP1

/// The status line and headers of the upstream answer Folio ended up with.
public struct UpstreamHead: Sendable {
    public let status: Int
    /// End-to-end headers only: hop-by-hop ones are already removed. `Content-Encoding` and
    /// `Content-Length` are still the upstream's, although the body handed on is decoded.
    public let headers: HTTPHeaders
    /// The URL that produced this answer, after following same-origin redirects.
    public let url: String

    public init(status: Int, headers: HTTPHeaders, url: String) {
        self.status = status
        self.headers = headers
        self.url = url
    }
}
