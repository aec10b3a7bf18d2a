/// Limits for talking to upstreams, fixed when an ``UpstreamClient`` is made.
///
/// Mirrors the `limits` block of the config (SECURITY.md, "Limits"): `connectTimeout`,
/// `upstreamTimeout`, `maxUpstreamBytes`, plus the pool size a crawl's `concurrency` needs.
public struct UpstreamSettings: Sendable, Hashable {
    /// Time allowed to open a TCP connection; beyond it the fetch fails with 504.
    public var connectTimeout: Duration = .seconds(5)
    /// Time allowed for one whole exchange: every redirect hop, the head and the entire body.
    public var responseTimeout: Duration = .seconds(30)
    /// Cap on one response body after decompression, counted over all of it.
    public var maxBodyBytes: Int = 256 << 20
    /// Soft limit of pooled HTTP/1 connections per upstream host; size it for crawl concurrency.
    public var maxConnectionsPerHost: Int = 8

    public init(
        connectTimeout: Duration = .seconds(5),
        responseTimeout: Duration = .seconds(30),
        maxBodyBytes: Int = 256 << 20,
        maxConnectionsPerHost: Int = 8
    ) {
        self.connectTimeout = connectTimeout
        self.responseTimeout = responseTimeout
        self.maxBodyBytes = maxBodyBytes
        self.maxConnectionsPerHost = maxConnectionsPerHost
    }
}
