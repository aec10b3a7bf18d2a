import Hummingbird
import NIOCore

/// Request context that remembers the TCP peer, which `X-Forwarded-For`, `trustedProxies` and
/// loopback-only purges need.
public struct GatewayContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The peer's IP address as text (IPv4 dotted or IPv6), nil for non-IP sockets.
    public let peerAddress: String?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.peerAddress = source.channel.remoteAddress?.ipAddress
    }
}
