import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Applies `ConnectionRules` to every request NIO's decoder reads, right after the decoder
/// (docs/API.md, "Connections"; RFC 9112 9.3, 9.6 and appendix C.2.2). Hummingbird's HTTP types
/// carry no version and Hummingbird closes only on a `Connection` field of exactly `close`, so:
/// - a request after whose answer the connection ends (`close` in `Connection` or
///   `Proxy-Connection` in any case or list, HTTP/1.0 without keep-alive, `Upgrade`, `CONNECT`,
///   bad framing) reaches Hummingbird with `Connection: close`; its answer says
///   `Connection: close`; once its end is read, nothing more is: later parts and parse errors
///   are dropped, and `ConnectionState` tells the front door to drop later bytes;
/// - the answer to an HTTP/1.0 keep-alive request says `Connection: keep-alive` (an HTTP/1.0
///   client closes otherwise);
/// - framing that a proxy must refuse but the parser lets through (no `Host` in HTTP/1.1, an
///   invalid `Host`, a `Transfer-Encoding` on HTTP/1.0) is marked for `RequestFraming` to answer
///   400; the mark is removed from every request first, so no client can set it.
///
/// Every answer Folio writes has a `Content-Length` (bodies are whole buffers), so none needs the
/// chunked coding HTTP/1.0 cannot read. It sees every request the responder gets, whatever its
/// method or body; the front door answers only plain HTTP/1.1 requests itself.
final class ConnectionRulesHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let state: ConnectionState
    /// Per request read and not answered yet, in order (pipelined requests are answered in
    /// order): what its answer must say about the connection.
    private var answers = CircularBuffer<Answer>()
    /// The request being read ends the connection.
    private var readingLast = false
    /// The server is shutting down: the connection closes after the answer in flight, so no
    /// answer may promise keep-alive.
    private var quiescing = false

    private enum Answer {
        case plain
        case keepAlive
        case close
    }

    init(state: ConnectionState = ConnectionState()) {
        self.state = state
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !state.inputEnded else { return }
        guard case .head(var head) = unwrapInboundIn(data) else {
            if case .end = unwrapInboundIn(data), readingLast { state.endInput() }
            return context.fireChannelRead(data)
        }
        let isHTTP10 = head.version == .http1_0
        let rules = ConnectionRules.Head(
            isHTTP10: isHTTP10, method: head.method.rawValue, connection: head.headers["connection"],
            proxyConnection: head.headers["proxy-connection"], hosts: head.headers["host"],
            transferEncoding: head.headers["transfer-encoding"], hasUpgrade: head.headers.contains(name: "upgrade"))
        let ending = ConnectionRules.ending(rules)
        let keepAlive10 = isHTTP10 && ending == nil
        answers.append(ending != nil ? .close : keepAlive10 ? .keepAlive : .plain)
        readingLast = ending != nil
        let marked = head.headers.contains(name: RequestFraming.mark)
        guard ending != nil || marked else { return context.fireChannelRead(data) }
        head.headers.remove(name: RequestFraming.mark)
        if case .framing(let fault) = ending { head.headers.add(name: RequestFraming.mark, value: fault.rawValue) }
        if ending != nil {
            // Hummingbird closes on exactly `close`, so the field is replaced; the fields its old
            // tokens named are hop-by-hop and go with it, or they would be forwarded upstream.
            ProxyHeaders.removeConnectionNamed(&head.headers)
            head.headers.replaceOrAdd(name: "connection", value: "close")
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// A parse error after the last request was read is not answered: nothing more is read.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !state.inputEnded else { return }
        context.fireErrorCaught(error)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent { quiescing = true }
        context.fireUserInboundEventTriggered(event)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // An informational answer (100 Continue) is not the request's answer.
        guard case .head(var head) = unwrapOutboundIn(data), head.status.code >= 200 else {
            return context.write(data, promise: promise)
        }
        switch answers.popFirst() {
        case .close:
            head.headers.replaceOrAdd(name: "connection", value: "close")
        case .keepAlive where !head.headers[canonicalForm: "connection"].contains("close"):
            head.headers.replaceOrAdd(name: "connection", value: quiescing ? "close" : "keep-alive")
        case .keepAlive, .plain, nil:
            return context.write(data, promise: promise)
        }
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
}

extension ConnectionRulesHandler {
    /// Puts a handler right after the HTTP/1 decoder of a Hummingbird HTTP/1.1 child channel.
    static func addAfterDecoder(of pipeline: ChannelPipeline.SynchronousOperations, state: ConnectionState) throws {
        let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
        try pipeline.addHandler(ConnectionRulesHandler(state: state), position: .after(decoder))
    }
}

/// Hummingbird's HTTP/1.1 child channel with a `ConnectionRulesHandler` after its decoder and an
/// `IdleTimeoutHandler`: the admin listener's, which has no front door or kept answers but the
/// same connection rules and idle timeout (`http1` must have none).
struct VersionAwareHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http1: HTTP1Channel
    let idleTimeout: TimeAmount?

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let state = ConnectionState()
            try ConnectionRulesHandler.addAfterDecoder(of: pipeline, state: state)
            if let idleTimeout {
                let rules = try pipeline.handler(type: ConnectionRulesHandler.self)
                try pipeline.addHandler(IdleTimeoutHandler(timeout: idleTimeout), position: .after(rules))
            }
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}
