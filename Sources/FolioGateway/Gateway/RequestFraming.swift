import FolioEngine
import HTTPTypes
import Hummingbird

/// Framing the HTTP parser lets through but a proxy must refuse (RFC 9112 3.2 and 6.1): a
/// second `Host` field, or a `Transfer-Encoding` other than exactly `chunked`. Either could make
/// Folio and the upstream disagree about which request (or which body) this is, so it is a 400
/// and nothing is forwarded. So is an HTTP/1.1 request without `Host` (RFC 9112 3.2's "MUST
/// respond with 400"), which `HTTP10Handler` marks, since Hummingbird's request has no version.
enum RequestFraming {
    /// The mark of an HTTP/1.1 request that came without `Host`.
    static let missingHost = "Folio-Internal-Missing-Host"

    static func check(_ request: HTTPRequest) throws(FolioError) {
        if request.headerFields[.folioMissingHost] != nil {
            throw .badFraming("an HTTP/1.1 request needs a Host header field")
        }
        // The parser moves the first `Host` into the authority; any `Host` left is a second one.
        if request.headerFields[.host] != nil {
            throw .badFraming("the request has more than one Host header field")
        }
        let codings = request.headerFields[values: .transferEncoding]
        guard !codings.isEmpty else { return }
        guard codings.count == 1, codings[0].trimmingSpaces().lowercased() == "chunked" else {
            throw .badFraming(
                "Transfer-Encoding '\(DetailText.clip(codings.joined(separator: ", ")))' is not accepted; only 'chunked' is"
            )
        }
    }
}

extension HTTPField.Name {
    static let host = Self("Host")!
    static let folioMissingHost = Self(RequestFraming.missingHost)!
}
