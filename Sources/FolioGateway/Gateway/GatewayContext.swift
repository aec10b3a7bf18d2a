import Hummingbird
import NIOCore

/// Request context that remembers the TCP peer, which `X-Forwarded-For`, `trustedProxies` and
/// loopback-only purges need, and what answering the request decided (`record`).
public struct GatewayContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The TCP peer, kept as an address: most requests (cached pages) never need its text.
    public let peer: SocketAddress?
    /// The peer's text when the connection already knows it (`KeptAnswerHandler`).
    private let knownPeerAddress: String?
    /// The matched route and the cache's outcome, for metrics, the access log and traces.
    let record = RequestRecord()

    /// The peer's IP address as text (IPv4 dotted or IPv6), nil for non-IP sockets.
    public var peerAddress: String? { knownPeerAddress ?? peer?.ipAddress }

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.peer = source.channel.remoteAddress
        self.knownPeerAddress = nil
    }

    /// A context for a connection that already read its peer and the peer's text once.
    init(source: ApplicationRequestContextSource, peer: SocketAddress?, peerAddress: String?) {
        self.coreContext = .init(source: source)
        self.peer = peer
        self.knownPeerAddress = peerAddress
    }
}
