import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Writes kept answers on the event loop that read their request (docs/DESIGN.md, "Kept
/// answers on the event loop"): a GET or HEAD whose answer a fresh snapshot held in memory
/// already keeps needs nothing to wait for, so it is answered here, without waiting for a
/// cooperative-pool thread and the hand-offs to and from the task Hummingbird's responder runs
/// every request in (half the latency of a cached page, about the same CPU). Everything else,
/// and every request while an earlier one is still with the responder, is handed on unchanged
/// (`KeptAnswerPassage`).
///
/// Sits after Hummingbird's `HTTPConnectionStateHandler`, which so counts these requests and
/// answers like its own (closing after the answer in flight on shutdown). Most kept answers are
/// written earlier, by `FrontDoorHandler` from the raw bytes; this handler answers the plain
/// requests that came through the decoder (and tells the front door whether anything is owed,
/// and when the connection last answered, for the idle timeout it keeps).
final class KeptAnswerHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let responder: GatewayResponder
    private var passage = KeptAnswerPassage()
    /// The answer to write when the request being read ends.
    private var answer: SentAnswer?
    /// The connection's peer as text, read once per connection (the access log writes it for
    /// every request).
    private var peerAddress: String?
    private var peerRead = false
    /// When the connection last ended an answer (or started), for `FrontDoorHandler`'s idle
    /// timeout.
    private(set) var lastActive = NIODeadline.now()

    /// No answer is owed on the connection and no request is being read: the next one may be
    /// answered at once, here or by `FrontDoorHandler`.
    var mayAnswerNext: Bool { passage.mayAnswerNext }
    /// The responder owes an answer to a request read to its end (`KeptAnswerPassage`).
    var owesAnswer: Bool { passage.owesAnswer }
    /// Request heads that reached this handler: `FrontDoorHandler` tells by it whether the
    /// decoder passed on a head it handed over.
    private(set) var headsRead = 0
    /// The next head was already offered to `answerAtOnce` by `FrontDoorHandler`, which had no
    /// answer for it: it goes to the responder without being asked again.
    private var nextHeadDeclined = false

    /// `FrontDoorHandler` asked for the head it is about to hand on, and got no answer.
    func declineNextHead() {
        nextHeadDeclined = true
    }

    init(responder: GatewayResponder) {
        self.responder = responder
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            headsRead &+= 1
            let declined = nextHeadDeclined
            nextHeadDeclined = false
            // While the channel is not writable, answers wait for the responder, which reads no
            // further while it cannot write: a client that sends and never reads is held back.
            if passage.mayAnswerNext, !declined, context.channel.isWritable, Self.mayAnswer(head),
                let answer = answerAtOnce(head, channel: context.channel)
            {
                passage.answer()
                self.answer = answer
            } else {
                passage.handOn()
                context.fireChannelRead(data)
            }
        case .body:
            if passage.body() == .forward { context.fireChannelRead(data) }
        case .end:
            switch passage.end() {
            case .forward:
                context.fireChannelRead(data)
            case .writeAnswer:
                guard let answer else { return }
                self.answer = nil
                write(answer, context: context)
            }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head:
            // An answer starts: activity, so the idle timeout counts from here and not from the
            // answer before (a long fill would leave the first bytes of a large answer too
            // little time to be acknowledged before the next check).
            touch()
        case .end:
            passage.responderEnded()
            touch()
        case .body:
            break
        }
        context.write(data, promise: promise)
    }

    /// Only requests that announce no body and keep the connection open (no `Connection` field
    /// but `keep-alive`): anything else about the connection is Hummingbird's to handle.
    private static func mayAnswer(_ head: HTTPRequest) -> Bool {
        for field in head.headerFields {
            switch field.name {
            case .contentLength, .transferEncoding, .expect: return false
            case .connection where field.value.lowercased() != "keep-alive": return false
            default: continue
            }
        }
        return true
    }

    /// The responder's answer to `head` when it can be given at once (see `mayAnswer`).
    func answerAtOnce(_ head: HTTPRequest, channel: any Channel) -> SentAnswer? {
        readPeer(channel)
        return responder.answerAtOnce(to: head, peerAddress: peerAddress)
    }

    /// The responder's whole answer to `head`, a request that announces no body, in a task of
    /// its own: for a request the front door gives its connection to (an event stream).
    func answerInTask(_ head: HTTPRequest, channel: any Channel, logger: Logger) -> EventLoopFuture<SentAnswer> {
        readPeer(channel)
        let promise = channel.eventLoop.makePromise(of: SentAnswer.self)
        let (responder, peer, peerAddress) = (responder, channel.remoteAddress, peerAddress)
        promise.completeWithTask {
            let context = GatewayContext(
                source: ApplicationRequestContextSource(channel: channel, logger: logger), peer: peer,
                peerAddress: peerAddress)
            return await responder.answer(
                to: Request(head: head, body: RequestBody(buffer: ByteBuffer())), context: context)
        }
        return promise.futureResult
    }

    /// The front door's refusal of a request NIO's decoder must not read (`Gateway.refusedAtOnce`).
    func refusal(_ head: HTTPRequest, tooLong targetBytes: Int?, channel: any Channel) -> SentAnswer {
        readPeer(channel)
        return responder.refusal(to: head, tooLong: targetBytes, peerAddress: peerAddress)
    }

    /// `limits.maxURLBytes` of the current gateway: the front door refuses longer targets.
    var maxTargetBytes: Int { responder.current.gateway.configuration.limits.maxURLBytes }

    private func readPeer(_ channel: any Channel) {
        if !peerRead {
            peerAddress = channel.remoteAddress?.ipAddress
            peerRead = true
        }
    }

    /// The connection did something: an answer was written.
    func touch() {
        lastActive = .now()
    }

    private func write(_ answer: SentAnswer, context: ChannelHandlerContext) {
        touch()
        var headers = answer.allFields
        headers[.date] = HTTPDate.now()
        context.write(wrapOutboundOut(.head(HTTPResponse(status: answer.status, headerFields: headers))), promise: nil)
        if let body = answer.body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

/// Hummingbird's HTTP/1.1 child channel with a `KeptAnswerHandler` after its connection state
/// handler, a `FrontDoorHandler` before its HTTP/1 codec, which keeps the idle timeout (`http1`
/// must have none), and a `ConnectionRulesHandler` after its decoder, the two sharing a
/// `ConnectionState`. Hummingbird's loop of a connection starts with the first request the
/// front door hands on (`ConnectionState.startLoop`).
struct KeptAnswerChannel: ServerChildChannel {
    struct Value: ServerChildChannelValue {
        let http1: HTTP1Channel.Value
        /// Whether the loop runs: true at the first request handed on, false when never.
        let loop: EventLoopFuture<Bool>

        var channel: any Channel { http1.channel }
    }

    let http1: HTTP1Channel
    let responder: GatewayResponder
    let idleTimeout: TimeAmount?

    /// What the channel reads into, kept between reads: NIO's default starts at 2 KiB, twice a
    /// usual request head, and every open connection (every watch stream) keeps one.
    static let receiveBuffer = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 1024, maximum: 65536)

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            try channel.syncOptions?.setOption(.recvAllocator, value: Self.receiveBuffer)
            let pipeline = channel.pipeline.syncOperations
            let state = try pipeline.handler(type: HTTPConnectionStateHandler.self)
            let kept = KeptAnswerHandler(responder: responder)
            try pipeline.addHandler(kept, position: .after(state))
            // Before the response encoder, which comes before the decoder: its answers are bytes.
            let encoder = try pipeline.handler(type: HTTPResponseEncoder.self)
            let loop = channel.eventLoop.makePromise(of: Bool.self)
            let connection = ConnectionState(loop: loop)
            try pipeline.addHandler(
                FrontDoorHandler(kept: kept, connection: connection, idleTimeout: idleTimeout, logger: logger),
                position: .before(encoder))
            try ConnectionRulesHandler.addAfterDecoder(of: pipeline, state: connection)
            return Value(http1: value, loop: loop.futureResult)
        }
    }

    func handle(value: Value, logger: Logger) async {
        // A connection that never needs the loop ends its task here, finishing the writer of
        // the channel's async wrapper, which closes its output: a close the front door declines
        // while an event stream has the connection.
        guard (try? await value.loop.get()) == true else {
            value.http1.outbound.finish()
            return
        }
        await http1.handle(value: value.http1, logger: logger)
    }
}
