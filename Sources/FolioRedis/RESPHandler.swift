import NIOCore

/// One command waiting for its answer. Completed at most once, always on the connection's
/// event loop (answer, timeout, failed write and close all run there), hence unchecked.
final class PendingReply: @unchecked Sendable {
    let promise: EventLoopPromise<RESPValue>
    private var done = false

    init(_ promise: EventLoopPromise<RESPValue>) {
        self.promise = promise
    }

    func succeed(_ value: RESPValue) {
        guard !done else { return }
        done = true
        promise.succeed(value)
    }

    func fail(_ error: RedisError) {
        guard !done else { return }
        done = true
        promise.fail(error)
    }
}

/// Writes commands and hands answers to their commands in order (RESP answers come back in
/// the order commands were sent, so any number may be in flight: pipelining).
final class RESPHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = (ByteBuffer, PendingReply)
    typealias OutboundOut = ByteBuffer

    private let parser: RESPParser
    private var received: ByteBuffer?
    private var waiting = CircularBuffer<PendingReply>()
    /// On a subscribed connection: gets every published message (`message`, channel, payload),
    /// which no command asked for.
    private let onPush: (@Sendable (RESPValue) -> Void)?

    init(parser: RESPParser, onPush: (@Sendable (RESPValue) -> Void)? = nil) {
        self.parser = parser
        self.onPush = onPush
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let (bytes, reply) = unwrapOutboundIn(data)
        waiting.append(reply)
        context.write(wrapOutboundOut(bytes), promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        if received == nil {
            received = incoming
        } else {
            received!.writeBuffer(&incoming)
        }
        do throws(RedisError) {
            while let value = try parser.next(&received!) {
                if let onPush, Self.isPush(value) {
                    onPush(value)
                    continue
                }
                guard let reply = waiting.popFirst() else {
                    throw RedisError.protocolError("an answer no command asked for")
                }
                reply.succeed(value)
            }
            if received!.readableBytes == 0 {
                received = nil
            } else if received!.readerIndex > 64 << 10 {
                received!.discardReadBytes()
            }
        } catch {
            failAll(error)
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        failAll(.connection("the connection closed"))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        failAll(.connection("\(error)"))
        context.close(promise: nil)
    }

    /// A published message (RESP2 pushes are arrays whose first element is `message`, or
    /// `smessage` for sharded pub/sub), or a cluster node's `sunsubscribe` when the channel's
    /// slot moved away (the client never sends `SUNSUBSCRIBE`, so that one is never a reply).
    private static func isPush(_ value: RESPValue) -> Bool {
        guard case .array(let elements?) = value, let kind = elements.first?.bytes else { return false }
        return pushKinds.contains(kind)
    }

    private static let pushKinds: Set<[UInt8]> = [
        Array("message".utf8), Array("smessage".utf8), Array("sunsubscribe".utf8),
    ]

    private func failAll(_ error: RedisError) {
        while let reply = waiting.popFirst() { reply.fail(error) }
    }
}
