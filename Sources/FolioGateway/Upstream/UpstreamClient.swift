import AsyncHTTPClient
import FolioConfiguration
import NIOCore
import NIOHTTP1
import Tracing

/// Fetches from upstreams with the rules of docs/API.md ("Proxy headers", "Errors"), which
/// AsyncHTTPClient's defaults do not give:
/// redirects only within the origin, one deadline over head and body, a decoded-size cap,
/// bodies inflated only as fast as they are validated, and refused connections reported at
/// once instead of retried until the connect timeout.
public final class UpstreamClient: Sendable {
    let settings: UpstreamSettings
    let client: HTTPClient
    /// Told of every completed `get` (final URL, head, decoded body size, time); `folio probe`
    /// reports what a fill saw through it.
    let observer: (@Sendable (UpstreamExchange) -> Void)?
    /// Spans for every exchange (children of the request's), and the `traceparent` they send.
    let tracer: any Tracer

    /// Most redirects followed for one fetch (docs/API.md, "Proxy headers").
    static let maxRedirects = 5

    public init(
        settings: UpstreamSettings, eventLoopGroup: any EventLoopGroup = HTTPClient.defaultEventLoopGroup,
        observer: (@Sendable (UpstreamExchange) -> Void)? = nil, tracer: any Tracer = NoOpTracer()
    ) {
        var configuration = HTTPClient.Configuration()
        // Redirects are followed by `get` itself, which refuses other origins.
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: TimeAmount(settings.connectTimeout))
        // Decoded by `stream` as the sink takes the bytes: the library's decompressor inflates
        // each read whole before anything looks at it (a bomb's read: tens of MiB of zeros).
        configuration.decompression = .disabled
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = settings.maxConnectionsPerHost
        self.settings = settings
        self.observer = observer
        self.tracer = tracer
        self.client = HTTPClient(eventLoopGroup: eventLoopGroup, configuration: configuration)
    }

    /// Must be called before the last reference goes away (AsyncHTTPClient asserts on it).
    public func shutdown() async throws {
        try await client.shutdown()
    }

    /// The request headers as sent on every hop: the upstream's `Host` comes from the URL,
    /// framing from the body actually sent, and `Accept-Encoding` from what Folio can decode.
    static func outgoing(_ headers: HTTPHeaders) -> HTTPHeaders {
        var headers = headers
        headers.remove(name: "host")
        headers.remove(name: "content-length")
        headers.remove(name: "transfer-encoding")
        headers.replaceOrAdd(name: "accept-encoding", value: "gzip, deflate")
        return headers
    }

    /// Sends one request. The caller's `Deadline` bounds the exchange; AsyncHTTPClient's own
    /// deadline (head only) is a backstop set later, so that Folio's timeout is the one reported.
    func execute(_ request: HTTPClientRequest) async throws -> HTTPClientResponse {
        do {
            let backstop = TimeAmount(settings.responseTimeout) + .seconds(1)
            return try await client.execute(request, deadline: .now() + backstop)
        } catch {
            throw UpstreamError.translating(error, phase: .head)
        }
    }

    /// The head Folio hands on: hop-by-hop headers never leave the exchange they belong to.
    static func head(of response: HTTPClientResponse, url: String) -> UpstreamHead {
        var headers = response.headers
        ProxyHeaders.removeHopByHop(&headers)
        return UpstreamHead(status: Int(response.status.code), headers: headers, url: url)
    }

    /// A `Content-Length` that alone proves the decoded body too large. A compressed body's
    /// length says nothing about its decoded size, so it only counts without `Content-Encoding`.
    static func declaredLength(_ headers: HTTPHeaders) -> Int? {
        let encodings = headers[canonicalForm: "content-encoding"]
        guard encodings.allSatisfy({ $0.lowercased() == "identity" }) else { return nil }
        guard let value = headers.first(name: "content-length") else { return nil }
        return Int(value.trimmingSpaces())
    }
}
