import FolioEngine
import HTTPTypes
import Hummingbird

/// Framing the HTTP parser lets through but a proxy must refuse (RFC 9112 3.2 and 6.1): a
/// second `Host` field, or a `Transfer-Encoding` other than exactly `chunked`. Either could make
/// Folio and the upstream disagree about which request (or which body) this is, so it is a 400
/// and nothing is forwarded.
enum RequestFraming {
    static func check(_ request: HTTPRequest) throws(FolioError) {
        // The parser moves the first `Host` into the authority; any `Host` left is a second one.
        if request.headerFields[.host] != nil {
            throw .badFraming("the request has more than one Host header field")
        }
        let codings = request.headerFields[values: .transferEncoding]
        guard !codings.isEmpty else { return }
        guard codings.count == 1, codings[0].trimmingSpaces().lowercased() == "chunked" else {
            throw .badFraming(
                "Transfer-Encoding '\(codings.joined(separator: ", "))' is not accepted; only 'chunked' is")
        }
    }
}

extension HTTPField.Name {
    static let host = Self("Host")!
}
