import NIOCore
import NIOHTTP1

/// The idle timeout of a listener without a front door (the admin listener's), by the rule of
/// `IdleTimeout`: a connection is closed once it has been idle for the timeout since its start
/// or its last answer, where idle means no answer is owed. It sits after the decoder, so a head
/// or body still coming (a slow trickle) is not activity: such a connection ends like an idle
/// one. Hummingbird's own timeout counts every read as activity, which a trickle outlives.
final class IdleTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let timeout: TimeAmount
    private var lastActive = NIODeadline.now()
    /// Requests read whose answer has not ended.
    private var owed = 0
    private var check: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { schedule(context, in: timeout) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if check == nil { schedule(context, in: timeout) }
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        check?.cancel()
        check = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        check?.cancel()
        check = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            owed += 1
            lastActive = .now()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            owed = max(0, owed - 1)
            lastActive = .now()
        }
        context.write(data, promise: promise)
    }

    private func schedule(_ context: ChannelHandlerContext, in delay: TimeAmount) {
        check = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: delay) { [self] in
            check = nil
            switch IdleTimeout.decide(now: .now(), lastActive: lastActive, busy: owed > 0, timeout: timeout) {
            case .close: context.close(promise: nil)
            case .checkAgain(let delay): schedule(context, in: delay)
            }
        }
    }
}
