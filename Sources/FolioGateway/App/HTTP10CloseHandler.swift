import NIOCore
import NIOHTTP1

/// Adds `Connection: close` to an HTTP/1.0 request without keep-alive as NIO's decoder hands it
/// on: its connection ends after the answer (RFC 9112, 9.3), and Hummingbird, which reads only
/// HTTP types (they carry no version), honours the field. Sits right after the decoder, so it
/// sees every request the responder gets, whatever its method or body.
final class HTTP10CloseHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), head.version == .http1_0, !head.isKeepAlive else {
            return context.fireChannelRead(data)
        }
        // Hummingbird closes on exactly `close`, so the field is replaced; the fields its old
        // tokens named are hop-by-hop and go with it, or they would be forwarded upstream.
        for token in head.headers[canonicalForm: "connection"] {
            let name = String(token)
            if name.lowercased() != "keep-alive", name.lowercased() != "close" { head.headers.remove(name: name) }
        }
        head.headers.replaceOrAdd(name: "connection", value: "close")
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }
}
