import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// What an HTTP/1.0 client needs from answers Hummingbird writes as HTTP/1.1 (RFC 9112, 9.3 and
/// appendix C.2.2). Hummingbird's HTTP types carry no version, so this handler, right after NIO's
/// decoder, notes each request's and adjusts both ways:
/// - a request without keep-alive gets `Connection: close`, which Hummingbird honours;
/// - the answer to a keep-alive request says `Connection: keep-alive` (an HTTP/1.0 client
///   closes otherwise).
///
/// Every answer Folio writes has a `Content-Length` (bodies are whole buffers), so none needs
/// the chunked coding HTTP/1.0 cannot read. It sees every request the responder gets, whatever
/// its method or body; the front door answers only HTTP/1.1 itself.
///
/// It also notes what needs the version the other way: an HTTP/1.1 request without `Host`,
/// which RFC 9112 3.2 makes a 400, is marked (`RequestFraming.missingHost`) for the gateway to
/// refuse; the mark is removed from every request first, so no client can set it.
final class HTTP10Handler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Per request read and not answered yet, in order (pipelined requests are answered in
    /// order): an HTTP/1.0 request that asked for keep-alive.
    private var keepAliveAsked = CircularBuffer<Bool>()
    /// The server is shutting down: the connection closes after the answer in flight, so no
    /// answer may promise keep-alive.
    private var quiescing = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        let isHTTP10 = head.version == .http1_0
        let keepAlive = isHTTP10 && head.isKeepAlive
        keepAliveAsked.append(keepAlive)
        let marked = head.headers.contains(name: RequestFraming.missingHost)
        let version = head.version
        let hostless = (version.major, version.minor) >= (1, 1) && !head.headers.contains(name: "host")
        guard (isHTTP10 && !keepAlive) || marked || hostless else { return context.fireChannelRead(data) }
        if marked { head.headers.remove(name: RequestFraming.missingHost) }
        if hostless { head.headers.add(name: RequestFraming.missingHost, value: "1") }
        if isHTTP10, !keepAlive {
            // Hummingbird closes on exactly `close`, so the field is replaced; the fields its old
            // tokens named are hop-by-hop and go with it, or they would be forwarded upstream.
            ProxyHeaders.removeConnectionNamed(&head.headers)
            head.headers.replaceOrAdd(name: "connection", value: "close")
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent { quiescing = true }
        context.fireUserInboundEventTriggered(event)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // An informational answer (100 Continue) is not the request's answer.
        guard case .head(var head) = unwrapOutboundIn(data), head.status.code >= 200,
            keepAliveAsked.popFirst() == true, !head.headers[canonicalForm: "connection"].contains("close")
        else { return context.write(data, promise: promise) }
        head.headers.replaceOrAdd(name: "connection", value: quiescing ? "close" : "keep-alive")
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
}

extension HTTP10Handler {
    /// Puts a handler right after the HTTP/1 decoder of a Hummingbird HTTP/1.1 child channel.
    static func addAfterDecoder(of pipeline: ChannelPipeline.SynchronousOperations) throws {
        let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
        try pipeline.addHandler(HTTP10Handler(), position: .after(decoder))
    }
}

/// Hummingbird's HTTP/1.1 child channel with an `HTTP10Handler` after its decoder: the admin
/// listener's, which has no front door or kept answers but the same HTTP/1.0 and `Host` rules.
struct VersionAwareHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http1: HTTP1Channel

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            try HTTP10Handler.addAfterDecoder(of: channel.pipeline.syncOperations)
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}
