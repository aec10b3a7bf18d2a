/// One completed upstream GET as `UpstreamClient` saw it, for observers (`folio probe`).
public struct UpstreamExchange: Sendable {
    /// The final head (after same-origin redirects), end-to-end headers only.
    public let head: UpstreamHead
    /// Body bytes received, after decoding `Content-Encoding`; nil when the body failed (the
    /// sink refused it, a limit or the deadline cut it off).
    public let bodyBytes: Int?
    /// From the request's start to the body's end, redirects included.
    public let duration: Duration
}
