import HTTPTypes
import HummingbirdCore
import NIOCore
import NIOHTTP1

/// Event streams on their own connection (docs/DESIGN.md, "Watch streams on their own
/// connection"): a request for an event stream that the front door reads with nothing owed on
/// the connection is answered by the gateway in a task of its own; a stream then has the
/// connection to itself. Hummingbird's loop of the connection is not started (or, having served
/// earlier requests, waits for a request that never comes), the HTTP codecs leave the pipeline,
/// and `EventStreamConnection` writes the stream: a stream costs its socket and a few objects,
/// not a task and its frames. Any other answer to such a request is written with `Connection:
/// close`, and the connection ends after it.
extension FrontDoorHandler {
    enum StreamState {
        case none
        /// The request is being answered (`quiesced`: the server drains meanwhile).
        case answering(quiesced: Bool)
        case writing(EventStreamConnection)

        /// Bytes the client sends are dropped: no further request is read.
        var dropsInput: Bool {
            if case .none = self { false } else { true }
        }

        /// Closes asked for behind the front door are not the stream's end.
        var declinesClosesFromBehind: Bool {
            if case .writing = self { true } else { false }
        }

        /// An answer is owed or being written: the connection is busy while the client takes it.
        var isOwed: Bool { dropsInput }
    }

    /// Answers `request`, an event stream's, in a task, and gives the connection to the stream
    /// when the answer is one.
    func takeForStream(_ request: HTTPRequest, context: ChannelHandlerContext) {
        streamState = .answering(quiesced: false)
        pending = nil
        kept.touch()
        kept.answerInTask(request, channel: context.channel, logger: logger)
            .assumeIsolatedUnsafeUnchecked().whenComplete { result in
                self.answered(result, context: context)
            }
    }

    private func answered(_ result: Result<SentAnswer, any Error>, context: ChannelHandlerContext) {
        guard case .answering(let quiesced) = streamState else { return }
        var answer = (try? result.get()) ?? Problem.answer(.internal)
        guard context.channel.isActive else {
            answer.stream?.closed()
            return
        }
        guard let stream = answer.stream else {
            connection.endInput()
            streamState = .none
            answer.added.append(HTTPField(name: .connection, value: "close"))
            write(answer, context: context)
            context.flush()
            context.channel.close(mode: .output, promise: nil)
            return
        }
        var head = context.channel.allocator.buffer(capacity: 512)
        answer.stream = nil
        ResponseHeadWriter.write(answer, date: HTTPDate.now(), chunked: true, to: &head)
        let writer = EventStreamConnection(stream: stream, context: context)
        streamState = .writing(writer)
        connection.forgoLoop()
        removeHTTPHandlers(context)
        writer.start(head: head)
        // Reading on finds the client's close at once (Hummingbird's loop reads no more).
        context.read()
        if quiesced { writer.end() }
    }

    /// The codecs and the handlers of requests, which a stream's connection no longer needs.
    private func removeHTTPHandlers(_ context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        let handlers: [(any RemovableChannelHandler)?] = [
            try? pipeline.handler(type: HTTPConnectionStateHandler.self),
            try? pipeline.handler(type: ConnectionRulesHandler.self),
            try? pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self),
            try? pipeline.handler(type: HTTPResponseEncoder.self),
        ]
        for case let handler? in handlers { pipeline.removeHandler(handler, promise: nil) }
    }

    /// The server drains: a stream ends now, a stream being answered as soon as it starts.
    /// False when no stream has the connection (the drain is Hummingbird's to handle).
    func endStreamOnQuiesce() -> Bool {
        switch streamState {
        case .none: return false
        case .answering: streamState = .answering(quiesced: true)
        case .writing(let writer): writer.end()
        }
        return true
    }

    /// The client closed its side: a stream ends at once (nobody reads it any more). False when
    /// no stream has the connection.
    func endStreamOnInputClosed(_ context: ChannelHandlerContext) -> Bool {
        guard case .writing = streamState else { return false }
        context.close(promise: nil)
        return true
    }

    /// While a stream has the connection the front door asks for every read itself.
    func readOnForStream(_ context: ChannelHandlerContext) {
        if case .writing = streamState { context.read() }
    }
}

extension EventStreamConnection {
    /// A request the front door gives a connection to: a GET asking for `text/event-stream`.
    static func isRequest(_ request: HTTPRequest) -> Bool {
        request.method == .get && ListEndpoint.asksForEventStream(request)
    }
}
