import NIOHTTP1

/// Header hygiene between client, Folio and upstream (docs/API.md, "Proxy headers").
///
/// Hop-by-hop headers describe one connection and must die with it; forwarding-chain headers
/// are believed only from trusted proxies, since anyone else can write anything in them.
public enum ProxyHeaders {
    /// Headers to send upstream for a client request.
    ///
    /// Removes hop-by-hop headers, `Host` (the upstream URL's authority is sent),
    /// `Accept-Encoding` (Folio asks for what it can decode) and the client's `traceparent` and
    /// `tracestate` (the upstream exchange's span writes its own, from what Folio validated).
    /// `Content-Length` stays, for forwarded bodies; `UpstreamClient.get` drops it.
    /// `X-Forwarded-For` gets `peer` appended when the peer is trusted and is replaced by `peer`
    /// alone otherwise; `Forwarded`, the other `X-Forwarded-*` and the headers some origins
    /// route or authorize by (`untrustedOnlyNames`) pass only from trusted peers.
    /// `X-Request-ID` becomes `requestID`.
    ///
    /// - Parameter peer: the client's IP address as text, without port; nil when unknown.
    public static func upstreamRequestHeaders(
        from client: HTTPHeaders,
        peer: String?,
        peerIsTrusted: Bool,
        requestID: String
    ) -> HTTPHeaders {
        var headers = client
        removeHopByHop(&headers)
        headers.remove(name: "host")
        headers.remove(name: "accept-encoding")
        headers.remove(name: "traceparent")
        headers.remove(name: "tracestate")

        let chain = peerIsTrusted ? headers["x-forwarded-for"].joined(separator: ", ") : ""
        headers.remove(name: "x-forwarded-for")
        if !peerIsTrusted {
            remove(&headers) { name in
                name.hasASCIICaseInsensitivePrefix("x-forwarded-")
                    || untrustedOnlyNames.contains { name.isASCIICaseInsensitiveEqual(to: $0) }
            }
        }
        switch (chain.isEmpty, peer) {
        case (true, let peer?): headers.add(name: "X-Forwarded-For", value: peer)
        case (false, let peer?): headers.add(name: "X-Forwarded-For", value: chain + ", " + peer)
        case (false, nil): headers.add(name: "X-Forwarded-For", value: chain)
        case (true, nil): break
        }

        headers.replaceOrAdd(name: "X-Request-ID", value: requestID)
        return headers
    }

    /// Headers believed only from trusted peers besides `X-Forwarded-*`: `Forwarded`, and those
    /// some origins take for the path to serve (`X-Original-URL`, `X-Rewrite-URL`: a route
    /// around the prefix Folio forwards to) or for the client's address (`X-Real-IP`).
    static let untrustedOnlyNames = ["forwarded", "x-original-url", "x-rewrite-url", "x-real-ip"]

    /// Headers of an upstream answer passed back to the client: hop-by-hop removed, and
    /// `Content-Length`/`Content-Encoding` dropped because the body is sent decoded and
    /// re-framed.
    public static func clientResponseHeaders(from upstream: HTTPHeaders) -> HTTPHeaders {
        var headers = upstream
        removeHopByHop(&headers)
        headers.remove(name: "content-length")
        removeDecodedCoding(&headers)
        return headers
    }

    /// Drops the coding the upstream client decoded from `Content-Encoding`: the first one,
    /// when it is `gzip` or `deflate` (swift-nio-extras decodes exactly those). A body in a coding
    /// Folio does not decode (`br`, `zstd`, …) is passed on as received, so it keeps its label
    /// and the client can decode it; without it the client would read compressed bytes as the
    /// answer.
    static func removeDecodedCoding(_ headers: inout HTTPHeaders) {
        let codings = headers[canonicalForm: "content-encoding"].map(String.init)
        guard let first = codings.first, ["gzip", "deflate"].contains(first.lowercased()) else { return }
        headers.remove(name: "content-encoding")
        if codings.count > 1 {
            headers.add(name: "Content-Encoding", value: codings.dropFirst().joined(separator: ", "))
        }
    }

    /// Removes every field whose name matches, keeping the order of the others.
    static func remove(_ headers: inout HTTPHeaders, where matches: (String) -> Bool) {
        guard headers.contains(where: { matches($0.name) }) else { return }
        headers = HTTPHeaders(headers.compactMap { matches($0.name) ? nil : ($0.name, $0.value) })
    }
}
