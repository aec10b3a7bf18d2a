import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// `NIOSameBytes FILE PORT --raw|--codec`: answers every request with FILE's bytes as
/// `application/json`, on SwiftNIO without Hummingbird: the rungs below `SameBytesServer`.
///
/// `--codec` is NIO's HTTP/1 server pipeline (`configureHTTPServerPipeline`: llhttp decoder,
/// response encoder, pipelining handler) with a handler that writes a prepared head and body:
/// what any NIO HTTP/1 server pays. `--raw` has no HTTP codec at all: it counts request heads by
/// their blank line and writes one prepared response (head and body bytes) per head, the least a
/// NIO server can do per request.
let arguments = CommandLine.arguments
guard arguments.count == 4, let port = Int(arguments[2]), let data = FileManager.default.contents(atPath: arguments[1]),
    ["--raw", "--codec"].contains(arguments[3])
else {
    FileHandle.standardError.write(Data("usage: NIOSameBytes FILE PORT --raw|--codec\n".utf8))
    exit(2)
}
let body = ByteBuffer(bytes: data)

final class RawAnswers: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    let answer: ByteBuffer
    /// Bytes of the blank line `\r\n\r\n` matched so far (a head may end across reads).
    var matched = 0

    init(answer: ByteBuffer) { self.answer = answer }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        let pattern: [UInt8] = [13, 10, 13, 10]
        buffer.withUnsafeReadableBytes { bytes in
            for byte in bytes {
                if byte == pattern[matched] {
                    matched += 1
                    if matched == 4 {
                        matched = 0
                        context.write(wrapOutboundOut(answer), promise: nil)
                    }
                } else {
                    matched = byte == 13 ? 1 : 0
                }
            }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) { context.flush() }
}

final class CodecAnswers: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    let head: HTTPResponseHead
    let body: ByteBuffer

    init(body: ByteBuffer) {
        self.body = body
        head = HTTPResponseHead(
            version: .http1_1, status: .ok,
            headers: ["Content-Type": "application/json", "Content-Length": String(body.readableBytes)])
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .end = unwrapInboundIn(data) else { return }
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.write(wrapOutboundOut(.end(nil)), promise: nil)
    }

    func channelReadComplete(context: ChannelHandlerContext) { context.flush() }
}

var rawAnswer = ByteBuffer(
    string: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.readableBytes)\r\n\r\n")
rawAnswer.writeImmutableBuffer(body)
let raw = arguments[3] == "--raw"
let answer = rawAnswer
let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
let channel = try await ServerBootstrap(group: group)
    .serverChannelOption(.backlog, value: 256)
    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
    .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
    .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
            if raw {
                try channel.pipeline.syncOperations.addHandler(RawAnswers(answer: answer))
            } else {
                try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                try channel.pipeline.syncOperations.addHandler(CodecAnswers(body: body))
            }
        }
    }
    .bind(host: "127.0.0.1", port: port).get()
try await channel.closeFuture.get()
