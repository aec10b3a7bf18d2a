import FolioConfiguration
import FolioEngine
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1

/// Sends upstream what Folio does not answer from a snapshot (docs/API.md, "Methods"): unsafe
/// methods on a route path, and paths no route matches to the fallback upstream. Each answer
/// comes back as it came, with its end-to-end fields and its `Cache-Status`.
struct Forwarder: Sendable {
    let upstream: UpstreamClient
    let cache: FillCoalescer
    let metrics: GatewayMetrics
    /// `server.fallbackUpstream`; nil: an unmatched path is a 404.
    let fallbackUpstream: UpstreamURL?
    /// `server.trustedProxies`, whose forwarding headers are kept.
    let trustedProxies: [CIDR]
    /// `limits.maxRequestBodyBytes`.
    let maxRequestBodyBytes: Int

    /// POST/PUT/PATCH/DELETE on a route path: forwarded with the client's whole query string;
    /// a 2xx answer drops the route's newest snapshots (docs/API.md, "Methods").
    func unsafe(
        _ request: Request, peerAddress: String?, route: CompiledRoute, match: RouteMatch,
        target: RequestTarget, requestID: String, record: RequestRecord
    ) async throws -> SentAnswer {
        var url = route.config.upstream.render(match.parameters)
        if let query = target.query, !query.isEmpty {
            url += (url.contains("?") ? "&" : "?") + query
        }
        let answer = try await failing(as: .forwarded, in: record) {
            try await metrics.measuringUpstream(route.metrics, outcome: \.upstreamOutcome) {
                try await forward(request, peerAddress: peerAddress, url: url, requestID: requestID)
            }
        }
        if (200..<300).contains(answer.status.code) {
            await cache.drop(route: route.name, retention: route.config.cache.snapshotRetention)
        }
        return answer
    }

    /// A path that matches no route: the fallback upstream, or 404.
    func fallback(
        _ request: Request, peerAddress: String?, target: RequestTarget, requestID: String, record: RequestRecord
    ) async throws -> SentAnswer {
        guard let fallbackUpstream else {
            throw FolioError.notFound(path: String(target.path))
        }
        return try await failing(as: .bypass, in: record) {
            try await metrics.measuringUpstream(metrics.unrouted, outcome: \.upstreamOutcome) {
                try await forward(
                    request, peerAddress: peerAddress,
                    url: fallbackUpstream.origin + Self.fallbackPath(fallbackUpstream.path, target.raw),
                    requestID: requestID)
            }
        }
    }

    /// Runs a forward whose answer is `outcome` in `record` (and so carries its `Cache-Status`);
    /// so is its failure when the upstream exchange failed (502, 504: an answer that involved the
    /// upstream, docs/API.md, "Cache-Status"). A request Folio refuses for its own body (400, 413)
    /// carries none, as docs/API.md, "Cache-Status" says of 413.
    private func failing(
        as outcome: CacheOutcome, in record: RequestRecord, _ body: () async throws -> SentAnswer
    ) async throws -> SentAnswer {
        do {
            let answer = try await body()
            record.cache = outcome
            return answer
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            let problem = FolioError.mapping(error)
            guard problem.isUpstreamFailure else { throw error }
            record.cache = outcome
            throw problem
        }
    }

    /// The fallback's path `prefix` and the client's `target` (a path, `RequestTargetRules`
    /// saw to it) with exactly one `/` between them: `/fb` or `/fb/` and `/x?q` give `/fb/x?q`.
    static func fallbackPath(_ prefix: String, _ target: String) -> String {
        var prefix = Substring(prefix)
        while prefix.hasSuffix("/") { prefix = prefix.dropLast() }
        return String(prefix) + (target.hasPrefix("/") ? "" : "/") + target
    }

    private func forward(_ request: Request, peerAddress: String?, url: String, requestID: String) async throws
        -> SentAnswer
    {
        var client = HTTPHeaders()
        for field in request.headers { client.add(name: field.name.rawName, value: field.value) }
        let headers = ProxyHeaders.upstreamRequestHeaders(
            from: client, peer: peerAddress, peerIsTrusted: trustedProxies.trusts(peerAddress), requestID: requestID)
        let method = HTTPMethod(rawValue: request.method.rawValue)
        let (head, body) = try await upstream.forward(
            method: method, url: url, headers: headers, body: request.body, maxRequestBodyBytes: maxRequestBodyBytes)
        var fields = HTTPFields()
        for header in ProxyHeaders.clientResponseHeaders(from: head.headers) {
            if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        fields[.contentLength] = String(body.readableBytes)
        return SentAnswer(status: HTTPResponse.Status(code: head.status), headers: fields, body: body)
    }
}
