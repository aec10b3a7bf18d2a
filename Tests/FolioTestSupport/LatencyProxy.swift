import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A real TCP proxy on 127.0.0.1 (ephemeral port) that delivers every byte half a round trip
/// late in each direction, as a mobile network does: what a client has sent arrives even when
/// the client gives up on it meanwhile, and a close arrives after the bytes before it.
///
/// ```swift
/// try await withLatencyProxy(to: gatewayPort, roundTrip: .milliseconds(80)) { proxy in
///     // ... ask "\(proxy.baseURL)/objects" ...
/// }
/// ```
public final class LatencyProxy: Sendable {
    public let port: Int
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    private let listener: any Channel
    private let state: NIOLockedValueBox<State>

    private struct State {
        var channels: [any Channel] = []
        var accepted = 0
    }

    private init(port: Int, listener: any Channel, state: NIOLockedValueBox<State>) {
        self.port = port
        self.listener = listener
        self.state = state
    }

    /// Connections clients opened through the proxy.
    public var connections: Int { state.withLockedValue { $0.accepted } }

    /// Starts a proxy to `host:port` that adds `roundTrip` to every exchange.
    public static func start(to port: Int, host: String = "127.0.0.1", roundTrip: Duration) async throws
        -> LatencyProxy
    {
        let (seconds, attoseconds) = (roundTrip / 2).components
        let delay = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        let state = NIOLockedValueBox(State())
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { inbound in
                state.withLockedValue {
                    $0.channels.append(inbound)
                    $0.accepted += 1
                }
                let relay = DelayRelay(delay: delay, partner: nil)
                return inbound.pipeline.addHandler(relay).flatMap {
                    // On the inbound connection's loop, so both relays of a pair share one.
                    ClientBootstrap(group: inbound.eventLoop)
                        .channelInitializer { outbound in
                            state.withLockedValue { $0.channels.append(outbound) }
                            return outbound.pipeline.addHandler(DelayRelay(delay: delay, partner: inbound))
                        }
                        .connect(host: host, port: port)
                        .map { outbound in relay.connected(to: outbound) }
                        .flatMapErrorThrowing { _ in inbound.close(promise: nil) }
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return LatencyProxy(port: listener.localAddress!.port!, listener: listener, state: state)
    }

    /// Closes the listener and every connection.
    public func stop() async {
        try? await listener.close()
        let channels = state.withLockedValue { state in
            defer { state.channels = [] }
            return state.channels
        }
        for channel in channels { try? await channel.close() }
    }
}

/// Runs `body` with a started latency proxy to `port` that is always stopped.
public func withLatencyProxy<T>(
    to port: Int, roundTrip: Duration, _ body: (LatencyProxy) async throws -> T
) async throws -> T {
    let proxy = try await LatencyProxy.start(to: port, roundTrip: roundTrip)
    do {
        let result = try await body(proxy)
        await proxy.stop()
        return result
    } catch {
        await proxy.stop()
        throw error
    }
}

/// One side of a proxied connection: what it reads is written to its partner `delay` later; its
/// close closes the partner `delay` later (after the bytes read before it).
private final class DelayRelay: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    private let delay: TimeAmount
    private let partner: NIOLockedValueBox<Partner>

    private struct Partner {
        var channel: (any Channel)?
        /// Bytes due before the partner was connected, and whether a close is due too.
        var waiting: [ByteBuffer] = []
        var closing = false
    }

    init(delay: TimeAmount, partner: (any Channel)?) {
        self.delay = delay
        self.partner = NIOLockedValueBox(Partner(channel: partner))
    }

    func connected(to channel: any Channel) {
        let (waiting, closing) = partner.withLockedValue { partner in
            partner.channel = channel
            defer { partner.waiting = [] }
            return (partner.waiting, partner.closing)
        }
        for buffer in waiting { channel.write(buffer, promise: nil) }
        channel.flush()
        if closing { channel.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        context.eventLoop.scheduleTask(in: delay) { self.forward(buffer) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        context.eventLoop.scheduleTask(in: delay) { self.closePartner() }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func forward(_ buffer: ByteBuffer) {
        let channel = partner.withLockedValue { partner -> (any Channel)? in
            if partner.channel == nil { partner.waiting.append(buffer) }
            return partner.channel
        }
        channel?.writeAndFlush(buffer, promise: nil)
    }

    private func closePartner() {
        let channel = partner.withLockedValue { partner -> (any Channel)? in
            if partner.channel == nil { partner.closing = true }
            return partner.channel
        }
        channel?.close(promise: nil)
    }
}
