import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// `open-loop`: a fixed-arrival-rate HTTP/1.1 load generator (what wrk2 does), for issue 19's
/// "no stall beside a fill" figure. Requests are due at fixed instants whatever the server
/// does; each latency is measured from the instant the request was due, not from when it could
/// be sent, so a stall is counted for every request it delayed (no coordinated omission).
///
/// `open-loop URL RATE SECONDS [CONNECTIONS]` — e.g. `open-loop http://127.0.0.1:8080/objects
/// 5000 10 64`. Connection `c` of `C` sends requests due at `start + (k·C + c) / RATE`; with
/// enough connections none is ever busy when its next request is due. Prints the achieved rate,
/// errors, and p50/p99/p99.9/max in milliseconds.
struct Options {
    var host: String
    var port: Int
    var target: String
    var rate: Double
    var seconds: Double
    var connections: Int

    init(_ arguments: [String]) {
        guard arguments.count >= 3, let url = URL(string: arguments[0]), let host = url.host,
            let rate = Double(arguments[1]), let seconds = Double(arguments[2]), rate > 0, seconds > 0
        else {
            FileHandle.standardError.write(Data("usage: open-loop URL RATE SECONDS [CONNECTIONS]\n".utf8))
            exit(2)
        }
        self.host = host
        port = url.port ?? 80
        target = url.path.isEmpty ? "/" : url.path + (url.query.map { "?" + $0 } ?? "")
        self.rate = rate
        self.seconds = seconds
        connections = arguments.count > 3 ? Int(arguments[3]) ?? 64 : 64
    }
}

/// Completes one promise per response, in order (no pipelining: one request in flight).
final class ResponseHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPClientResponsePart
    var pending: EventLoopPromise<Int>?
    var status = 0

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): status = Int(head.status.code)
        case .body: break
        case .end:
            let promise = pending
            pending = nil
            promise?.succeed(status)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        pending?.fail(error)
        pending = nil
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        pending?.fail(ChannelError.ioOnClosedChannel)
        pending = nil
    }
}

/// Latencies in microseconds and failures of one connection.
struct Tally: Sendable {
    var latencies: [Int] = []
    var errors = 0
}

func run(_ options: Options) async throws {
    let group = MultiThreadedEventLoopGroup.singleton
    let start = ContinuousClock.now + .milliseconds(200)
    let end = start + .milliseconds(Int64(options.seconds * 1000))
    let interval = 1 / options.rate
    let tallies = try await withThrowingTaskGroup(of: Tally.self) { tasks in
        for connection in 0..<options.connections {
            tasks.addTask {
                let handler = ResponseHandler()
                let channel = try await ClientBootstrap(group: group)
                    .channelOption(.socketOption(.tcp_nodelay), value: 1)
                    .channelInitializer { channel in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHTTPClientHandlers()
                            try channel.pipeline.syncOperations.addHandler(handler)
                        }
                    }
                    .connect(host: options.host, port: options.port).get()
                var tally = Tally()
                var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: options.target)
                head.headers.add(name: "Host", value: "\(options.host):\(options.port)")
                for k in 0... {
                    let due =
                        start + .microseconds(Int64((Double(k * options.connections + connection)) * interval * 1e6))
                    if due >= end { break }
                    if ContinuousClock.now < due { try await Task.sleep(until: due, clock: .continuous) }
                    let status = channel.eventLoop.makePromise(of: Int.self)
                    let sent = channel.eventLoop.submit {
                        handler.pending = status
                        channel.write(HTTPClientRequestPart.head(head), promise: nil)
                        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
                    }
                    do {
                        try await sent.get()
                        let code = try await status.futureResult.get()
                        let elapsed = ContinuousClock.now - due
                        tally.latencies.append(
                            Int(elapsed.components.seconds) * 1_000_000
                                + Int(elapsed.components.attoseconds / 1_000_000_000_000))
                        if code >= 400 { tally.errors += 1 }
                    } catch {
                        tally.errors += 1
                        break
                    }
                }
                try? await channel.close()
                return tally
            }
        }
        var all: [Tally] = []
        for try await tally in tasks { all.append(tally) }
        return all
    }
    var latencies = tallies.flatMap(\.latencies)
    latencies.sort()
    let errors = tallies.reduce(0) { $0 + $1.errors }
    func percentile(_ p: Double) -> String {
        guard !latencies.isEmpty else { return "-" }
        let index = min(latencies.count - 1, Int((Double(latencies.count) * p).rounded(.up)) - 1)
        return String(format: "%.2f", Double(latencies[max(0, index)]) / 1000)
    }
    print(
        "requests \(latencies.count) (\(String(format: "%.0f", Double(latencies.count) / options.seconds))/s, "
            + "asked \(Int(options.rate))/s), errors \(errors); ms from the due instant: p50 \(percentile(0.5)) "
            + "p99 \(percentile(0.99)) p99.9 \(percentile(0.999)) max \(percentile(1))")
}

try await run(Options(Array(CommandLine.arguments.dropFirst())))
