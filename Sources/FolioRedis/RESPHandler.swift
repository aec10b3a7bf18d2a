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

    init(parser: RESPParser) {
        self.parser = parser
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

    private func failAll(_ error: RedisError) {
        while let reply = waiting.popFirst() { reply.fail(error) }
    }
}
