import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// A real HTTP/1.1 server on 127.0.0.1 (ephemeral port) playing an upstream in tests.
///
/// Raw NIO rather than Hummingbird: it records request headers exactly as they arrived
/// (Hummingbird's HTTP types drop connection-specific fields before a handler sees them, which
/// would hide hygiene bugs), and it can misbehave at byte level (slow drip, truncated body).
/// A plain channel handler rather than `NIOAsyncChannel`, whose writer traps when a connection
/// accepted during `stop` is dropped unserved.
///
/// ```swift
/// try await withTestUpstream({ request in .json(#"[1,2]"#) }) { upstream in
///     // ... fetch "\(upstream.baseURL)/items" ...
///     #expect(upstream.requests.first?.path == "/items")
/// }   // stopped here, also when the body throws
/// ```
public final class TestUpstream: Sendable {
    /// One request as received: header names in their original case and order.
    public struct Recorded: Sendable {
        public var method: String
        public var path: String
        public var query: String?
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        public init(
            method: String, path: String, query: String?, headers: [(name: String, value: String)], body: [UInt8]
        ) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.body = body
        }

        /// The value sent for `name` (case-insensitive), several lines joined by ", "; nil if absent.
        public func header(_ name: String) -> String? {
            let values = headerValues(name)
            return values.isEmpty ? nil : values.joined(separator: ", ")
        }

        /// Every value sent for `name` (case-insensitive), one per header line.
        public func headerValues(_ name: String) -> [String] {
            headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        }

        public var bodyText: String { String(decoding: body, as: UTF8.self) }
    }

    /// What to answer. Without `chunks`, `body` is sent with a `Content-Length` (unless
    /// `headers` already frame it); with `chunks`, each is written separately, chunked.
    public struct Reply: Sendable {
        public var status: Int = 200
        public var headers: [(String, String)] = []
        public var body: [UInt8] = []
        public var chunks: [[UInt8]]? = nil
        /// Wait before sending the head.
        public var delay: Duration? = nil
        /// Wait before each body chunk (a slow drip).
        public var chunkDelay: Duration? = nil
        /// Close the connection after the body parts instead of ending the message.
        public var truncate: Bool = false
        /// Abort the connection with a TCP reset (SO_LINGER 0) after the body parts.
        public var reset: Bool = false
        /// Awaited before body part `index` is written (after `chunkDelay`), e.g. to hold the
        /// rest of a body back until the client has shown it received the first part.
        public var beforeChunk: (@Sendable (_ index: Int) async -> Void)? = nil

        public init(
            status: Int = 200,
            headers: [(String, String)] = [],
            body: [UInt8] = [],
            chunks: [[UInt8]]? = nil,
            delay: Duration? = nil,
            chunkDelay: Duration? = nil,
            truncate: Bool = false
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.chunks = chunks
            self.delay = delay
            self.chunkDelay = chunkDelay
            self.truncate = truncate
        }

        public static func json(_ text: String, status: Int = 200, headers: [(String, String)] = []) -> Reply {
            Reply(status: status, headers: [("Content-Type", "application/json")] + headers, body: Array(text.utf8))
        }

        public static func text(_ text: String, status: Int = 200, headers: [(String, String)] = []) -> Reply {
            Reply(status: status, headers: [("Content-Type", "text/plain")] + headers, body: Array(text.utf8))
        }

        public static func redirect(to location: String, status: Int = 302) -> Reply {
            Reply(status: status, headers: [("Location", location)])
        }
    }

    public typealias Handler = @Sendable (Recorded) async -> Reply

    public let port: Int
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    private let core: Core
    private let listener: any Channel

    private init(port: Int, core: Core, listener: any Channel) {
        self.port = port
        self.core = core
        self.listener = listener
    }

    public static func start(_ handler: @escaping Handler) async throws -> TestUpstream {
        let core = Core(handler: handler)
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(RequestHandler(core: core))
                    core.track(channel)
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return TestUpstream(port: listener.localAddress!.port!, core: core, listener: listener)
    }

    /// Everything received so far, in order of completion.
    public var requests: [Recorded] { core.state.withLockedValue { $0.requests } }
    public var requestCount: Int { core.state.withLockedValue { $0.requests.count } }
    /// Request heads seen so far, counted before their bodies have arrived.
    public var headCount: Int { core.state.withLockedValue { $0.heads } }

    public func setHandler(_ handler: @escaping Handler) {
        core.state.withLockedValue { $0.handler = handler }
    }

    /// Closes the listener and every connection; afterwards the port refuses connections.
    public func stop() async {
        try? await listener.close()
        let (connections, replies) = core.state.withLockedValue { state in
            state.stopped = true
            defer {
                state.connections = [:]
                state.replies = [:]
            }
            return (Array(state.connections.values), Array(state.replies.values))
        }
        for reply in replies { reply.cancel() }
        for connection in connections { try? await connection.close() }
        for reply in replies { await reply.value }
    }
}

extension TestUpstream {
    /// State shared by the listener, its connections and the reply tasks.
    fileprivate final class Core: Sendable {
        struct State {
            var handler: Handler
            var requests: [Recorded] = []
            var heads = 0
            var stopped = false
            var connections: [ObjectIdentifier: any Channel] = [:]
            var replies: [Int: Task<Void, Never>] = [:]
            var nextReply = 0
        }

        let state: NIOLockedValueBox<State>

        init(handler: @escaping Handler) {
            state = NIOLockedValueBox(State(handler: handler))
        }

        /// Remembers an open connection so `stop` can close it; one accepted while stopping is
        /// closed at once.
        func track(_ channel: any Channel) {
            let id = ObjectIdentifier(channel)
            let stopped = state.withLockedValue { state in
                if !state.stopped { state.connections[id] = channel }
                return state.stopped
            }
            if stopped {
                channel.close(promise: nil)
                return
            }
            channel.closeFuture.whenComplete { _ in
                _ = self.state.withLockedValue { $0.connections.removeValue(forKey: id) }
            }
        }

        /// Records a complete request and answers it from a task, so handlers may suspend.
        func respond(to head: HTTPRequestHead, body: [UInt8], on channel: any Channel) {
            let recorded = TestUpstream.record(head, body: body)
            state.withLockedValue { state in
                guard !state.stopped else { return }
                state.requests.append(recorded)
                let handler = state.handler
                let id = state.nextReply
                state.nextReply += 1
                state.replies[id] = Task {
                    let reply = await handler(recorded)
                    do {
                        try await TestUpstream.send(reply, answering: head, on: channel)
                    } catch {
                        try? await channel.close()
                    }
                    _ = self.state.withLockedValue { $0.replies.removeValue(forKey: id) }
                }
            }
        }
    }

    /// Collects request parts on the event loop; the answer is written by `Core.respond`.
    private final class RequestHandler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart

        let core: Core
        var head: HTTPRequestHead?
        var body: [UInt8] = []

        init(core: Core) {
            self.core = core
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let received):
                head = received
                body = []
                core.state.withLockedValue { $0.heads += 1 }
            case .body(var chunk):
                body += chunk.readBytes(length: chunk.readableBytes) ?? []
            case .end:
                guard let received = head else { return }
                head = nil
                core.respond(to: received, body: body, on: context.channel)
            }
        }
    }

    fileprivate static func record(_ head: HTTPRequestHead, body: [UInt8]) -> Recorded {
        let target = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return Recorded(
            method: head.method.rawValue,
            path: String(target[0]),
            query: target.count > 1 ? String(target[1]) : nil,
            headers: head.headers.map { ($0.name, $0.value) },
            body: body
        )
    }

    /// Writes `reply` through the pipeline (`Channel` writes are safe from any thread).
    fileprivate static func send(_ reply: Reply, answering request: HTTPRequestHead, on channel: any Channel)
        async throws
    {
        if let delay = reply.delay { try await Task.sleep(for: delay) }
        var headers = HTTPHeaders(reply.headers)
        let framed = headers.contains(name: "content-length") || headers.contains(name: "transfer-encoding")
        if !framed {
            if reply.chunks != nil {
                headers.add(name: "Transfer-Encoding", value: "chunked")
            } else {
                headers.add(name: "Content-Length", value: String(reply.body.count))
            }
        }
        let status = HTTPResponseStatus(statusCode: reply.status)
        try await channel.writeAndFlush(
            HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers)))
        if request.method != .HEAD {
            for (index, part) in (reply.chunks ?? (reply.body.isEmpty ? [] : [reply.body])).enumerated() {
                if let delay = reply.chunkDelay { try await Task.sleep(for: delay) }
                await reply.beforeChunk?(index)
                try await channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: part))))
            }
        }
        if reply.reset, let socket = channel as? any SocketOptionProvider {
            try await socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
            try await channel.close()
            return
        }
        if reply.truncate {
            try await channel.close()
            return
        }
        try await channel.writeAndFlush(HTTPServerResponsePart.end(nil))
    }
}

/// Runs `body` with a started test upstream that is always stopped.
public func withTestUpstream<T>(
    _ handler: @escaping TestUpstream.Handler,
    _ body: (TestUpstream) async throws -> T
) async throws -> T {
    let upstream = try await TestUpstream.start(handler)
    do {
        let result = try await body(upstream)
        await upstream.stop()
        return result
    } catch {
        await upstream.stop()
        throw error
    }
}
