import FolioEngine
import HTTPTypes
import Hummingbird

/// Framing the HTTP parser lets through but a proxy must refuse (RFC 9112 3.2 and 6.1;
/// docs/API.md, "Connections"): a second `Host` field, an invalid `Host` value, or a
/// `Transfer-Encoding` other than exactly `chunked`. Either could make Folio and the upstream
/// disagree about which request (or which body) this is, so it is a 400, nothing is forwarded,
/// and the connection closes after it. So is an HTTP/1.1 request without `Host` (RFC 9112 3.2's
/// "MUST respond with 400") and any `Transfer-Encoding` on HTTP/1.0, which need the request's
/// version: `ConnectionRulesHandler` marks them, since Hummingbird's request has none.
enum RequestFraming {
    /// The mark `ConnectionRulesHandler` sets, with a `ConnectionRules.FramingFault` as value.
    static let mark = "Folio-Internal-Framing"

    static func check(_ request: HTTPRequest) throws(FolioError) {
        if let marked = request.headerFields[.folioFraming] {
            throw .badFraming(Self.detail(ConnectionRules.FramingFault(rawValue: marked) ?? .transferCoding))
        }
        // The parser moves the first `Host` into the authority; any `Host` left is a second one.
        if request.headerFields[.host] != nil { throw .badFraming(detail(.twoHosts)) }
        if let host = request.authority, !HostSyntax.isValid(host) { throw .badFraming(detail(.invalidHost)) }
        let codings = request.headerFields[values: .transferEncoding]
        guard !codings.isEmpty else { return }
        guard codings.count == 1, codings[0].trimmingSpaces().lowercased() == "chunked" else {
            let given = DetailText.clip(codings.joined(separator: ", "))
            throw .badFraming("Transfer-Encoding '\(given)' is not accepted; only 'chunked' is")
        }
    }

    static func detail(_ fault: ConnectionRules.FramingFault) -> String {
        switch fault {
        case .missingHost: "an HTTP/1.1 request needs a Host header field"
        case .twoHosts: "the request has more than one Host header field"
        case .invalidHost: "the Host header field is not a valid host and port"
        case .transferCoding: "Transfer-Encoding is not accepted unless it is exactly 'chunked'"
        case .codingOnHTTP10: "an HTTP/1.0 request may not have a Transfer-Encoding"
        }
    }
}

extension HTTPField.Name {
    static let host = Self("Host")!
    static let folioFraming = Self(RequestFraming.mark)!
}
