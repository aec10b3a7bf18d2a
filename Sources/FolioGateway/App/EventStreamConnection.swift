import NIOCore

/// Writes a watch stream on a connection the front door gave to it (docs/DESIGN.md, "Watch
/// streams on their own connection"): on the connection's event loop, with no task while the
/// stream waits. A signal from the hub computes the next event in a short task and writes it as
/// a chunk; a heartbeat is a chunk written at once. While the client does not take what was
/// written, nothing more is computed: once it has, one event brings the stream from where it
/// is to the newest snapshot, however many came meanwhile.
final class EventStreamConnection {
    private let stream: EventStream
    private let context: ChannelHandlerContext
    /// An event is being computed.
    private var computing = false
    /// The stream ended: the last chunk is written, the connection closes.
    private(set) var ended = false

    init(stream: EventStream, context: ChannelHandlerContext) {
        self.stream = stream
        self.context = context
    }

    /// Writes `head` and the first event; from now on the stream's signals come here, and the
    /// hub forgets the stream when the connection closes.
    func start(head: ByteBuffer) {
        context.write(NIOAny(IOData.byteBuffer(head)), promise: nil)
        if let first = stream.takeFirst() {
            writeChunk(first)
            stream.sentEvents.increment()
        }
        context.flush()
        context.channel.closeFuture.whenComplete { [stream] _ in stream.closed() }
        // What answering the request took (its task, the first event) is freed now: streams
        // open in bursts (clients reconnecting after a deploy), and the heap they leave behind
        // goes back to the OS instead of staying resident for as long as the streams last.
        MemoryReturner.shared.freed()
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        stream.watcher.attach { signal in
            bound.eventLoop.execute { bound.value.handle(signal) }
        }
    }

    private func handle(_ signal: Watcher.Signal) {
        guard !ended else { return }
        switch signal {
        case .end:
            end()
        case .heartbeat:
            guard !computing, context.channel.isWritable else { return }
            writeChunk(EventStreamText.heartbeat)
            context.flush()
        case .changed:
            advance()
        }
    }

    /// The client took what was written: an event held back goes now.
    func writabilityChanged() {
        if context.channel.isWritable { advance() }
    }

    /// Computes the event to the key's newest snapshot and writes it, unless one is being
    /// computed (it is checked again after), the client is behind, or the stream is current.
    private func advance() {
        guard !ended, !computing, context.channel.isWritable, stream.isBehind else { return }
        computing = true
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        let stream = stream
        Task {
            let next = await stream.next()
            bound.eventLoop.execute { bound.value.computed(next) }
        }
    }

    private func computed(_ next: EventStream.Next) {
        computing = false
        guard !ended else { return }
        switch next {
        case .event(let bytes):
            writeChunk(bytes)
            context.flush()
            stream.sentEvents.increment()
            // The key may have moved on while this one was computed.
            advance()
        case .end:
            end()
        case .upToDate:
            break
        }
    }

    /// Ends the stream: the last chunk, then the connection closes once it is sent (the server
    /// ends the stream, or no event can describe the new list).
    func end() {
        guard !ended else { return }
        ended = true
        let sent = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(NIOAny(IOData.byteBuffer(ByteBuffer(string: "0\r\n\r\n"))), promise: sent)
        let context = context
        sent.futureResult.assumeIsolatedUnsafeUnchecked().whenComplete { _ in context.close(promise: nil) }
    }

    /// `bytes` as one chunk of the chunked body; an event's bytes, shared by every stream of
    /// its view, are not copied unless small.
    private func writeChunk(_ bytes: ByteBuffer) {
        let small = bytes.readableBytes <= 1024
        var chunk = context.channel.allocator.buffer(capacity: (small ? bytes.readableBytes : 0) + 12)
        chunk.writeString(String(bytes.readableBytes, radix: 16))
        chunk.writeStaticString("\r\n")
        if small {
            chunk.writeImmutableBuffer(bytes)
        } else {
            context.write(NIOAny(IOData.byteBuffer(chunk)), promise: nil)
            context.write(NIOAny(IOData.byteBuffer(bytes)), promise: nil)
            chunk.clear()
        }
        chunk.writeStaticString("\r\n")
        context.write(NIOAny(IOData.byteBuffer(chunk)), promise: nil)
    }
}
