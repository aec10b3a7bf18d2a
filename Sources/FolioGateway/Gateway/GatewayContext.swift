import Hummingbird
import NIOCore

/// Request context that remembers the TCP peer, which `X-Forwarded-For`, `trustedProxies` and
/// loopback-only purges need, and what answering the request decided (`record`).
public struct GatewayContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The TCP peer, kept as an address: most requests (cached pages) never need its text.
    public let peer: SocketAddress?
    /// The matched route and the cache's outcome, for metrics, the access log and traces.
    let record = RequestRecord()

    /// The peer's IP address as text (IPv4 dotted or IPv6), nil for non-IP sockets.
    public var peerAddress: String? { peer?.ipAddress }

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.peer = source.channel.remoteAddress
    }
}
