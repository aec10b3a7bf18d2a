import NIOCore
import NIOHTTP1
import NIOPosix

/// The loopback endpoint swift-otel's exporter posts to, handing each batch to `SpanDelivery`
/// (docs/OPERATIONS.md, "Traces").
///
/// swift-otel 1.6 encodes spans the way a collector takes them (OTLP protobuf) but keeps its
/// exporter internal: it neither retries a refused connection nor says more of a failed export
/// than "Failed to export batch", and discards the collector's answer. Its only seam is the
/// endpoint URL, so it is pointed here; this answers at once (the library's batch is done) and
/// Folio's own delivery does the retrying, counting and logging. It listens on 127.0.0.1, on a
/// port of the system's choosing, and takes only requests bearing a per-process secret.
final class SpanRelay: Sendable {
    static let secretHeader = "x-folio-relay"
    /// Far above a batch of swift-otel's 512 spans.
    static let maxBodyBytes = 16 << 20

    /// Where swift-otel posts (`http://127.0.0.1:PORT/v1/traces`).
    let url: String
    let secret: String
    private let channel: any Channel

    /// Binds the listener (on the calling thread: the URL is needed before the tracer exists).
    init(delivery: SpanDelivery) throws {
        let secret = (0..<4).map { _ in String(UInt64.random(in: .min ... .max), radix: 16) }.joined()
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                do {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(RelayHandler(secret: secret, delivery: delivery))
                    return channel.eventLoop.makeSucceededVoidFuture()
                } catch {
                    return channel.eventLoop.makeFailedFuture(error)
                }
            }
        channel = try bootstrap.bind(host: "127.0.0.1", port: 0).wait()
        self.secret = secret
        url = "http://127.0.0.1:\(channel.localAddress?.port ?? 0)/v1/traces"
    }

    func close() async {
        try? await channel.close()
    }

    deinit {
        channel.close(promise: nil)
    }
}

/// One connection of the relay: a POST to `/v1/traces` with the secret is queued and answered
/// 200 with an empty OTLP response; anything else is refused.
private final class RelayHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let secret: String
    let delivery: SpanDelivery
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()
    private var tooLarge = false

    init(secret: String, delivery: SpanDelivery) {
        self.secret = secret
        self.delivery = delivery
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let received):
            head = received
            body.clear()
            tooLarge = false
        case .body(var chunk):
            if body.readableBytes + chunk.readableBytes > SpanRelay.maxBodyBytes { tooLarge = true }
            if !tooLarge { body.writeBuffer(&chunk) }
        case .end:
            guard let head else { return }
            let status: HTTPResponseStatus
            if head.method != .POST || !head.uri.hasPrefix("/v1/traces") {
                status = .notFound
            } else if head.headers.first(name: SpanRelay.secretHeader) != secret {
                status = .forbidden
            } else if tooLarge {
                status = .payloadTooLarge
            } else {
                delivery.enqueue(
                    .init(
                        body: body,
                        contentType: head.headers.first(name: "Content-Type") ?? "application/x-protobuf"))
                status = .ok
            }
            self.head = nil
            body = ByteBuffer()
            var headers = HTTPHeaders([("Content-Length", "0")])
            if status == .ok { headers.add(name: "Content-Type", value: "application/x-protobuf") }
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
                promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
