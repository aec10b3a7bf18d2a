import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Reads a client connection's bytes before NIO's HTTP/1 decoder and answers kept pages itself,
/// writing the response bytes directly (docs/DESIGN.md, "The front door"): a cached page then
/// costs no llhttp run, no `HTTPRequestHead`, no conversion to and from HTTP types and no
/// response encoder, which together were half of its CPU.
///
/// It reads each request head itself (`RawRequestHead`, strict syntax only). A plain GET or
/// HEAD, with nothing owed on the connection, goes to the same `answerAtOnce` as
/// `KeptAnswerHandler`; a head it does not answer is handed to the decoder whole, so the
/// decoder is always between requests when the next head comes, and while that request's answer
/// is owed every later head follows it (the answers keep their order). Anything it does not
/// read as a bodyless head (a body, an upgrade, odd syntax) hands the rest of the connection to
/// the decoder for good. It keeps the idle timeout in Hummingbird's place, since requests it
/// answers never reach Hummingbird's connection state handler, and it holds back the closes
/// asked for behind it until what was written before them has been sent. A request for an event
/// stream, with nothing owed on the connection, it answers itself and gives the connection to
/// the stream (`FrontDoorHandler+EventStream.swift`).
final class FrontDoorHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    let kept: KeptAnswerHandler
    /// Shared with the `ConnectionRulesHandler` after the decoder: once either side has ended
    /// the input, every byte that still comes is dropped.
    let connection: ConnectionState
    /// The idle timeout it keeps in Hummingbird's place, and the linger after the output closed.
    private let timers: ConnectionTimers
    /// For the requests it answers in a task of their own (event streams).
    let logger: Logger
    /// What an event stream request made of the connection: nothing yet, a request being
    /// answered (the input is dropped meanwhile), or the stream writing (`EventStreamConnection`).
    var streamState = StreamState.none
    /// Bytes of a head whose end has not come yet.
    var pending: ByteBuffer?
    /// The decoder reads everything from now on.
    private var handingOnForever = false
    /// The input was closed from behind (a cancelled connection): closes are not held.
    private var cutOff = false

    /// NIO's decoder and `kept` follow in the pipeline (false only where a test reads what is
    /// handed on as bytes): a head handed on that does not reach `kept` was refused.
    private let decoderFollows: Bool

    init(
        kept: KeptAnswerHandler, connection: ConnectionState = ConnectionState(), idleTimeout: TimeAmount?,
        logger: Logger = Logger(label: "folio"), decoderFollows: Bool = true
    ) {
        self.kept = kept
        self.connection = connection
        timers = ConnectionTimers(idleTimeout: idleTimeout)
        self.logger = logger
        self.decoderFollows = decoderFollows
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { startIdleChecks(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelTimers()
        connection.forgoLoop()
    }

    func channelActive(context: ChannelHandlerContext) {
        startIdleChecks(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelTimers()
        connection.forgoLoop()
        context.fireChannelInactive()
    }

    private func cancelTimers() {
        timers.cancel()
    }

    private func startIdleChecks(_ context: ChannelHandlerContext) {
        timers.startIdleChecks(context, kept: kept, streamOwed: { [weak self] in self?.streamState.isOwed ?? false })
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Nothing more is read once the input ended (docs/API.md, "Connections").
        guard !connection.inputEnded, !streamState.dropsInput else { return }
        guard !handingOnForever else { return handOn(unwrapInboundIn(data), context: context) }
        var buffer = unwrapInboundIn(data)
        if var earlier = pending {
            pending = nil
            earlier.writeBuffer(&buffer)
            buffer = earlier
        }
        var wrote = false
        let maxTargetBytes = kept.maxTargetBytes
        while buffer.readableBytes > 0, !connection.inputEnded {
            let reading = buffer.withUnsafeReadableBytes { RawRequestHead.read($0, maxTargetBytes: maxTargetBytes) }
            switch reading {
            case .incomplete:
                pending = buffer
                buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
            case .handOnForever:
                handingOnForever = true
                handOn(buffer, context: context)
                buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
            case .refuse(let refusal):
                refuse(refusal, buffer, context: context)
                return
            case .head(let head):
                let bytes = buffer.readSlice(length: head.length)!
                // Only while the channel takes writes: a client that sends and does not read
                // gets its answers through the responder, which stops reading (backpressure).
                if head.isPlain, kept.mayAnswerNext, context.channel.isWritable,
                    let request = bytes.withUnsafeReadableBytes({ RawRequestHead.request($0) })
                {
                    if let answer = kept.answerAtOnce(request, channel: context.channel) {
                        write(answer, context: context)
                        wrote = true
                        continue
                    }
                    if EventStreamConnection.isRequest(request) {
                        if wrote { context.flush() }
                        return takeForStream(request, context: context)
                    }
                    // Asked already: `KeptAnswerHandler` hands it on without asking again.
                    kept.declineNextHead()
                }
                let headsBefore = kept.headsRead
                handOn(bytes, context: context)
                if decoderFollows, kept.headsRead == headsBefore, !connection.inputEnded {
                    // The decoder refused the head (its error answer closes the connection): no
                    // later head may be answered here, ahead of that answer.
                    handingOnForever = true
                    if buffer.readableBytes > 0 {
                        handOn(buffer, context: context)
                        buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
                    }
                }
            }
        }
        if wrote { context.flush() }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        readOnForStream(context)
        context.fireChannelReadComplete()
    }

    /// Answers a request NIO's decoder must not read (`RawRequestHead.Refusal`) with its
    /// problem and `Connection: close`, after any answers written before it, then ends the
    /// input and closes the output once the answer is out.
    private func refuse(_ refusal: RawRequestHead.Refusal, _ buffer: ByteBuffer, context: ChannelHandlerContext) {
        pending = nil
        guard kept.mayAnswerNext else {
            // An earlier request's answer is still owed: written here, the refusal would pass it.
            // The decoder answers in order instead (a bare 400, or the gateway's 405 for a
            // `CONNECT`), and closes.
            handingOnForever = true
            handOn(buffer, context: context)
            return
        }
        connection.endInput()
        let request: HTTPRequest?
        var targetBytes: Int?
        switch refusal {
        case .method(let length?):
            request = buffer.withUnsafeReadableBytes {
                RawRequestHead.request(UnsafeRawBufferPointer(rebasing: $0[..<length]))
            }
        case .method(nil):
            request = buffer.withUnsafeReadableBytes { RawRequestHead.request($0, requestLineOnly: true) }
        case .targetTooLong(let bytes):
            targetBytes = bytes
            request = buffer.withUnsafeReadableBytes { RawRequestHead.requestLineStart($0) }
        }
        let head = request ?? HTTPRequest(method: .get, scheme: "http", authority: nil, path: "/")
        var answer = kept.refusal(head, tooLong: targetBytes, channel: context.channel)
        answer.added.append(HTTPField(name: .connection, value: "close"))
        write(answer, context: context)
        context.flush()
        context.channel.close(mode: .output, promise: nil)
    }
    /// Writes that had piled up have drained: the connection made progress (a slow client
    /// reading a large answer is not idle).
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { kept.touch() }
        if case .writing(let stream) = streamState { stream.writabilityChanged() }
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event {
            // The client sent all it will: a stream's client is gone; otherwise Hummingbird's
            // loop closes the connection once the answers ahead are written (it starts now if
            // no request needed it).
            if endStreamOnInputClosed(context) { return }
            connection.startLoop()
        }
        if event is ChannelShouldQuiesceEvent, endStreamOnQuiesce() {
            return
        }
        if event is ChannelShouldQuiesceEvent {
            // Hummingbird's connection state handler closes the connection now or after the
            // answer it owes; from here on it sees every request.
            handingOnForever = true
            if let pending {
                self.pending = nil
                handOn(pending, context: context)
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// A close asked for behind the front door waits until everything written before it has
    /// been sent: NIO's close drops unsent writes, and the closes that come after an answer
    /// (Hummingbird's on shutdown and after `Connection: close`, NIO's after the client's
    /// half-close) would cut a large answer short. An empty write marks the point; its promise
    /// completes once the bytes ahead of it are out (or the connection failed). Requests sent
    /// behind a drain's close are not read (NIO's pipeline handler drops them once quiescing).
    /// A client that stops reading is still closed by the idle timeout, whose close starts
    /// here and so does not wait; and once the input was closed from behind (Hummingbird does
    /// so when a drain's deadline cancels its connections), closes are not held either.
    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        // An event stream has the connection: the closes of the handlers behind it, which
        // answer no request of it (and the output close of Hummingbird's loop that never ran),
        // are not the stream's end.
        if streamState.declinesClosesFromBehind {
            promise?.succeed()
            return
        }
        if mode == .input { cutOff = true }
        guard mode != .input, !cutOff, context.channel.isActive else {
            return context.close(mode: mode, promise: promise)
        }
        // Whoever closes the output, nothing more is read (docs/API.md, "Connections"); the
        // connection lingers to take the client's close, which a full close now could turn
        // into a reset that loses the answer, but not for long.
        connection.endInput()
        pending = nil
        if mode == .output { timers.startLingering(context) }
        let sent = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(ByteBuffer())), promise: sent)
        sent.futureResult.assumeIsolatedUnsafeUnchecked().whenComplete { _ in
            context.close(mode: mode, promise: promise)
        }
    }

    /// Hands bytes on to NIO's decoder and Hummingbird's loop, which starts with the first.
    private func handOn(_ bytes: ByteBuffer, context: ChannelHandlerContext) {
        connection.startLoop()
        context.fireChannelRead(wrapInboundOut(bytes))
    }

    /// Writes the answer as HTTP/1.1 bytes: status line, fields, `Date`, and the body in the same
    /// buffer unless it is large (then it goes as is, a second iovec of the same `writev`).
    func write(_ answer: SentAnswer, context: ChannelHandlerContext) {
        kept.touch()
        let body = answer.body
        let bodyBytes = body?.readableBytes ?? 0
        let inline = bodyBytes <= Self.inlineBodyLimit
        var bytes = context.channel.allocator.buffer(capacity: 1024 + (inline ? bodyBytes : 0))
        ResponseHeadWriter.write(answer, date: HTTPDate.now(), bodyBytes: bodyBytes, to: &bytes)
        if inline, var body, bodyBytes > 0 {
            bytes.writeBuffer(&body)
            context.write(NIOAny(bytes), promise: nil)
        } else {
            context.write(NIOAny(bytes), promise: nil)
            if let body, bodyBytes > 0 { context.write(NIOAny(body), promise: nil) }
        }
    }

    /// Bodies up to this size are copied behind the head (one write); larger ones are not copied.
    static let inlineBodyLimit = 16 * 1024
}
