import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A plain TCP connection to a local server, for what no HTTP client sends on purpose:
/// smuggling attempts, slow header trickles, oversized header blocks.
final class RawConnection: Sendable {
    private let channel: any Channel
    private let bytes: NIOLockedValueBox<[UInt8]>

    private init(channel: any Channel, bytes: NIOLockedValueBox<[UInt8]>) {
        self.channel = channel
        self.bytes = bytes
    }

    static func open(port: Int) async throws -> RawConnection {
        let bytes = NIOLockedValueBox<[UInt8]>([])
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Collector(bytes: bytes))
                }
            }
            .connect(host: "127.0.0.1", port: port)
            .get()
        return RawConnection(channel: channel, bytes: bytes)
    }

    /// Sends `text` as is (write `\r\n` yourself).
    func send(_ text: String) async throws {
        try await channel.writeAndFlush(ByteBuffer(string: text))
    }

    /// Everything received so far, as text.
    var received: String { String(decoding: bytes.withLockedValue { $0 }, as: UTF8.self) }

    /// Whether the server has closed the connection.
    var isClosed: Bool { !channel.isActive }

    /// Waits until the server closes the connection, at most `limit` (a safety net, not a
    /// timing assertion); false if it was still open then (it is closed by us in that case).
    func waitForClose(limit: Duration = .seconds(20)) async -> Bool {
        let closedByServer = await withTaskGroup(of: Bool.self) { group in
            group.addTask { [channel] in
                try? await channel.closeFuture.get()
                return true
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            let first = await group.next() ?? false
            if !first { try? await channel.close() }
            group.cancelAll()
            return first
        }
        return closedByServer
    }

    /// Waits until the received text contains `marker`, at most `limit`; true if it did.
    func waitFor(_ marker: String, limit: Duration = .seconds(20)) async -> Bool {
        let end = ContinuousClock.now + limit
        while ContinuousClock.now < end {
            if received.contains(marker) { return true }
            if isClosed { return received.contains(marker) }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    func close() async {
        try? await channel.close()
    }

    private final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let bytes: NIOLockedValueBox<[UInt8]>

        init(bytes: NIOLockedValueBox<[UInt8]>) {
            self.bytes = bytes
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let chunk = unwrapInboundIn(data)
            bytes.withLockedValue { $0 += chunk.readableBytesView }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}
