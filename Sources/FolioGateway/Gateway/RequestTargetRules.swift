import FolioEngine
import HTTPTypes

/// Request targets no route and no upstream may see (docs/API.md, "Paths"), refused before
/// routing: `CONNECT` (Folio is no tunnel), the asterisk form except `OPTIONS *` (which Folio
/// answers itself), any other target that is not a path, and paths holding a dot segment.
///
/// Clients resolve dot segments before they send a path; on the wire they can only be an
/// attempt to make an origin that resolves them serve something outside the prefix Folio
/// forwards to (`fallbackUpstream: http://up/fb` and `/a/../../secret`).
enum RequestTargetRules {
    /// Throws 405 for `CONNECT`, 400 for any other request whose target is not a path (nor
    /// `OPTIONS *`), or whose path holds a dot segment.
    static func check(_ request: HTTPRequest) throws(FolioError) {
        let target = request.path ?? ""
        if request.method == .connect {
            // NIO reads what follows a CONNECT head as a tunnel's bytes and frames the answer
            // without a body, so the client reads it until the connection closes.
            throw FolioError.methodNotAllowed(request.method.rawValue, path: target)
                .adding(header: .init("Allow", CORSRules.allowedMethods))
                .adding(header: .init("Connection", "close"))
        }
        if isAsteriskOptions(request) { return }
        guard target.utf8.first == UInt8(ascii: "/") else {
            throw .invalidRequestTarget(target)
        }
        if hasDotSegment(RequestTarget(target).path) { throw .dotSegmentInPath }
    }

    /// `OPTIONS *`: a question about the server, not about a resource (RFC 9110 9.3.7).
    static func isAsteriskOptions(_ request: HTTPRequest) -> Bool {
        request.method == .options && request.path == "*"
    }

    /// Whether a segment of `path` (raw, no query) is `.` or `..`: each dot may be written
    /// `%2e` or `%2E`; `/`, `\`, `%2f` and `%5c` (any case) separate segments; a `;` or `#` ends
    /// the segment's name (`..;x` is `..` with a parameter to origins that read path parameters).
    static func hasDotSegment(_ path: Substring) -> Bool {
        path.utf8.withContiguousStorageIfAvailable(hasDotSegment) ?? hasDotSegment(Array(path.utf8))
    }

    private static func hasDotSegment(_ bytes: some RandomAccessCollection<UInt8>) -> Bool {
        // Per segment: the dots of its name, whether its name holds anything else, whether its
        // name has ended (a `;` or `#`).
        var dots = 0
        var other = false
        var ended = false
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            var length = 1
            var token = Token(byte)
            if byte == UInt8(ascii: "%"), bytes.distance(from: index, to: bytes.endIndex) >= 3 {
                let high = bytes[bytes.index(after: index)]
                let low = bytes[bytes.index(index, offsetBy: 2)] | 0x20  // lowercase a letter
                switch (high, low) {
                case (UInt8(ascii: "2"), UInt8(ascii: "e")): (token, length) = (.dot, 3)
                case (UInt8(ascii: "2"), UInt8(ascii: "f")), (UInt8(ascii: "5"), UInt8(ascii: "c")):
                    (token, length) = (.separator, 3)
                default: break
                }
            }
            switch token {
            case .separator:
                if !other && (dots == 1 || dots == 2) { return true }
                (dots, other, ended) = (0, false, false)
            case .nameEnd: ended = true
            case .dot: if !ended { dots += 1 }
            case .other: if !ended { other = true }
            }
            index = bytes.index(index, offsetBy: length)
        }
        return !other && (dots == 1 || dots == 2)
    }

    private enum Token {
        case dot, separator, nameEnd, other

        init(_ byte: UInt8) {
            switch byte {
            case UInt8(ascii: "."): self = .dot
            case UInt8(ascii: "/"), UInt8(ascii: "\\"): self = .separator
            case UInt8(ascii: ";"), UInt8(ascii: "#"): self = .nameEnd
            default: self = .other
            }
        }
    }
}
