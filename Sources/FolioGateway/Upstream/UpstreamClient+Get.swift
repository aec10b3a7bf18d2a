import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Tracing

extension UpstreamClient {
    /// GETs `url`, following 301/302/303/307/308 only within its origin (at most 5 hops), and
    /// streams the final body into the sink `makeSink` returns for the final head.
    ///
    /// The whole exchange must finish within `responseTimeout` (504). A redirect to another
    /// origin fails before anything is sent there (502), as does a 6th redirect. The body is
    /// decoded (gzip, deflate) as the sink takes it and capped at `maxBodyBytes` in total (502).
    /// Errors thrown by `makeSink` or the sink are rethrown unchanged, and the sink's
    /// `failureWait` cancels the download at once.
    public func get<Sink: UpstreamBodySink>(
        _ url: String,
        headers: HTTPHeaders,
        makeSink: (UpstreamHead) throws -> Sink
    ) async throws -> (UpstreamHead, Sink) {
        try await tracer.withSpan("GET", ofKind: .client) { span in
            var headers = headers
            tracer.inject(span.context, into: &headers, using: HTTPHeadersInjector())
            span.describe(url: url)
            let (head, sink) = try await get(url, headers: headers, span: span, makeSink: makeSink)
            return (head, sink)
        }
    }

    private func get<Sink: UpstreamBodySink>(
        _ url: String,
        headers: HTTPHeaders,
        span: any Span,
        makeSink: (UpstreamHead) throws -> Sink
    ) async throws -> (UpstreamHead, Sink) {
        let started = ContinuousClock.now
        let deadline = Deadline(after: settings.responseTimeout)
        let headers = Self.outgoing(headers)
        let (head, response) = try await deadline.run { [self] in
            try await followRedirects(from: url, headers: headers)
        }
        let maxBodyBytes = settings.maxBodyBytes
        if let length = Self.declaredLength(head.headers), length > maxBodyBytes {
            throw UpstreamError.bodyTooLarge("Content-Length \(length) exceeds \(maxBodyBytes)")
        }
        let sink = Handover(try makeSink(head))
        do {
            let received = try await deadline.run(abortedBy: sink.value.failureWait) {
                try await Self.stream(response, into: sink, limit: maxBodyBytes)
            }
            observer?(UpstreamExchange(head: head, bodyBytes: received, duration: .now - started))
            span.attributes[SpanAttributeName.status] = head.status
            span.attributes[SpanAttributeName.bodySize] = received
        } catch {
            span.attributes[SpanAttributeName.status] = head.status
            observer?(UpstreamExchange(head: head, bodyBytes: nil, duration: .now - started))
            throw error
        }
        return (head, sink.value)
    }

    /// The first non-redirect answer, with its body not yet read.
    private func followRedirects(
        from url: String,
        headers: HTTPHeaders
    ) async throws -> (UpstreamHead, HTTPClientResponse) {
        let origin = Origin(url)
        var current = url
        var hops = 0
        while true {
            var request = HTTPClientRequest(url: current)
            request.headers = headers
            let response = try await execute(request)
            let status = Int(response.status.code)
            guard Redirect.isRedirect(status), let location = response.headers.first(name: "location") else {
                return (Self.head(of: response, url: current), response)
            }
            guard hops < Self.maxRedirects else {
                throw UpstreamError.tooManyRedirects("more than \(Self.maxRedirects) redirects from \(url)")
            }
            guard let next = try? SameOriginLink.resolve(location, from: current, within: origin) else {
                throw UpstreamError.redirectRefused("\(current) redirected to \(location)")
            }
            await Self.discard(response.body)
            hops += 1
            current = next
        }
    }

    /// Reads a redirect's small body so its connection can be reused; a large one is dropped,
    /// which closes the connection instead of downloading it.
    private static func discard(_ body: HTTPClientResponse.Body) async {
        var remaining = 64 << 10
        do {
            for try await chunk in body {
                remaining -= chunk.readableBytes
                if remaining < 0 { return }
            }
        } catch {}
    }

    /// Feeds the decoded body to the sink a piece at a time and returns the bytes received
    /// (decoded). A compressed body is inflated only as the sink takes it, at most a byte past
    /// `limit`: a bomb fails at its first bad byte, or at the limit, having cost what was read
    /// (docs/API.md, "Proxy headers"). Library errors are translated; the sink's own pass
    /// unchanged.
    @discardableResult
    static func stream<Sink: UpstreamBodySink>(
        _ response: HTTPClientResponse,
        into sink: Handover<Sink>,
        limit: Int
    ) async throws -> Int {
        var body = try DecodedBody(response)
        var received = 0
        while let chunk = try await body.next(atMost: limit - received + 1) {
            received += chunk.readableBytes
            guard received <= limit else {
                throw UpstreamError.bodyTooLarge("body exceeds \(limit) bytes")
            }
            try await sink.value.receive(chunk)
        }
        return received
    }
}
