import Foundation
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

    /// A connection to `port`; with `readingWhenAsked`, it reads only on `readMore()` (64 KiB at
    /// most each time, into a small socket buffer): a slow client, whose answers pile up on
    /// the server.
    static func open(port: Int, readingWhenAsked: Bool = false) async throws -> RawConnection {
        let bytes = NIOLockedValueBox<[UInt8]>([])
        var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        if readingWhenAsked {
            bootstrap = bootstrap.channelOption(.autoRead, value: false)
                .channelOption(.socketOption(.so_rcvbuf), value: 16 << 10)
                .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 64 << 10))
        }
        let channel =
            try await bootstrap
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

    /// Reads once more (see `open(port:readingWhenAsked:)`).
    func readMore() {
        channel.read()
    }

    /// Reads as a slow client does, one `readMore()` every `pause`, until `count` bytes came or
    /// the server closed the connection (at most `limit`, a safety net).
    func readSlowly(upTo count: Int, pause: Duration = .milliseconds(25), limit: Duration = .seconds(60)) async throws {
        let end = ContinuousClock.now + limit
        while !isClosed, receivedCount < count, ContinuousClock.now < end {
            readMore()
            try await Task.sleep(for: pause)
        }
    }

    /// Ends what this side sends (a half-close): the server reads the end of input.
    func halfClose() async throws {
        try await channel.close(mode: .output)
    }

    /// The first answer received so far: the `Content-Length` its head gives and how many bytes
    /// after its head came; nil until the whole head is in.
    var answerProgress: (contentLength: Int, bodyBytes: Int)? {
        let bytes = self.bytes.withLockedValue { $0 }
        guard let end = bytes.firstRange(of: Array("\r\n\r\n".utf8))?.lowerBound else { return nil }
        let head = String(decoding: bytes[..<end], as: UTF8.self).lowercased()
        guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
            let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
        else { return nil }
        return (length, bytes.count - end - 4)
    }

    /// How many bytes came so far.
    var receivedCount: Int { bytes.withLockedValue { $0.count } }

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
