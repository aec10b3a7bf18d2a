import AsyncHTTPClient
import FolioEngine
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import Tracing

extension UpstreamClient {
    /// Forwards a request as is (unsafe methods, `fallbackUpstream`) and returns the upstream's
    /// answer with its body collected and decoded.
    ///
    /// The body streams through; more than `maxRequestBodyBytes` (by `Content-Length` up front,
    /// or counted) fails with a `FolioError` 413, a body the client's connection cannot deliver
    /// (malformed framing) with a 400. Redirects are passed back, not followed.
    /// Timeouts, the decoded-size cap and the error codes are those of `get`.
    public func forward<Body: AsyncSequence & Sendable>(
        method: HTTPMethod,
        url: String,
        headers: HTTPHeaders,
        body: Body,
        maxRequestBodyBytes: Int
    ) async throws -> (UpstreamHead, ByteBuffer) where Body.Element == ByteBuffer {
        try await tracer.withSpan(method.rawValue, ofKind: .client) { span in
            var headers = headers
            tracer.inject(span.context, into: &headers, using: HTTPHeadersInjector())
            span.describe(url: url)
            let (head, body) = try await exchange(
                method: method, url: url, headers: headers, body: body, maxRequestBodyBytes: maxRequestBodyBytes)
            span.attributes[SpanAttributeName.status] = head.status
            return (head, body)
        }
    }

    private func exchange<Body: AsyncSequence & Sendable>(
        method: HTTPMethod,
        url: String,
        headers: HTTPHeaders,
        body: Body,
        maxRequestBodyBytes: Int
    ) async throws -> (UpstreamHead, ByteBuffer) where Body.Element == ByteBuffer {
        let declared = headers.first(name: "content-length").flatMap { Int($0.trimmingSpaces()) }
        if let declared, declared > maxRequestBodyBytes {
            throw FolioError.requestBodyTooLarge(limit: maxRequestBodyBytes)
        }
        let failure = NIOLockedValueBox<FolioError?>(nil)
        let relay = BodyRelay(LimitedBody(base: body, limit: maxRequestBodyBytes, failure: failure))
        let headers = Self.outgoing(headers)
        let maxBodyBytes = settings.maxBodyBytes
        let timeout = settings.responseTimeout
        do {
            return try await withThrowingTaskGroup(of: Void.self) { group in
                // The client's body is read only by this child, which is over before the answer
                // is returned (see BodyRelay).
                group.addTask { await relay.pump() }
                defer { group.cancelAll() }
                return try await Deadline(after: timeout).run { [self] in
                    var request = HTTPClientRequest(url: url)
                    request.method = method
                    request.headers = headers
                    request.body = try await Self.requestBody(relay, declared: declared)
                    let response = try await execute(request)
                    let head = Self.head(of: response, url: url)
                    if let length = Self.declaredLength(head.headers), length > maxBodyBytes {
                        throw UpstreamError.bodyTooLarge("Content-Length \(length) exceeds \(maxBodyBytes)")
                    }
                    let sink = Handover(CollectingSink(limit: maxBodyBytes))
                    try await Self.stream(response, into: sink, limit: maxBodyBytes)
                    return (head, sink.value.buffer)
                }
            }
        } catch {
            throw failure.withLockedValue { $0 } ?? error
        }
    }

    /// No body at all when the client sent none, so a bodiless GET or DELETE is not turned into
    /// a chunked one (AsyncHTTPClient still sends `Content-Length: 0` for methods that expect a
    /// body); otherwise the client's length when it gave one, else chunked.
    private static func requestBody<Body: AsyncSequence & Sendable>(
        _ body: Body,
        declared: Int?
    ) async throws -> HTTPClientRequest.Body? where Body.Element == ByteBuffer {
        var iterator = body.makeAsyncIterator()
        guard let first = try await iterator.next() else { return nil }
        let rest = PeekedBody(first: first, rest: Handover(iterator))
        return .stream(rest, length: declared.map { .known(Int64($0)) } ?? .unknown)
    }
}
