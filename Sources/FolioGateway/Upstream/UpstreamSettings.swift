/// Limits for talking to upstreams, fixed when an ``UpstreamClient`` is made.
///
/// Mirrors the `limits` block of the config (SECURITY.md, "Limits"): `connectTimeout`,
/// `upstreamTimeout`, `maxUpstreamBytes`, plus the size of the connection pool.
public struct UpstreamSettings: Sendable, Hashable {
    /// Time allowed to open a TCP connection; beyond it the fetch fails with 504.
    public var connectTimeout: Duration = .seconds(5)
    /// Time allowed for one whole exchange: every redirect hop, the head and the entire body.
    public var responseTimeout: Duration = .seconds(30)
    /// Cap on one response body after decompression, counted over all of it.
    public var maxBodyBytes: Int = 256 << 20
    /// Limit of pooled HTTP/1 connections per upstream host. A request beyond it waits for a
    /// connection within `connectTimeout` (then 504), so it is set far above what fills need:
    /// every distinct list missed at once, bypassed requests and forwarded writes hold one each
    /// for a whole answer, and a small pool turned a burst of slow fills into timeouts that the
    /// upstream never saw. Envoy's default circuit breaker allows as many.
    public var maxConnectionsPerHost: Int = Self.defaultMaxConnectionsPerHost

    public static let defaultMaxConnectionsPerHost = 1024

    public init(
        connectTimeout: Duration = .seconds(5),
        responseTimeout: Duration = .seconds(30),
        maxBodyBytes: Int = 256 << 20,
        maxConnectionsPerHost: Int = Self.defaultMaxConnectionsPerHost
    ) {
        self.connectTimeout = connectTimeout
        self.responseTimeout = responseTimeout
        self.maxBodyBytes = maxBodyBytes
        self.maxConnectionsPerHost = maxConnectionsPerHost
    }
}
