import HTTPTypes

/// A request head read from a connection's raw bytes by `FrontDoorHandler`, before NIO's HTTP/1
/// decoder: strict RFC 9112 syntax only (CRLF line ends, token names, no folding, no bare CR or
/// LF, printable ASCII), so that wherever it says a head ends, any HTTP/1 parser agrees. Pure:
/// it reads bytes and says what they are; `request` makes Hummingbird's request of one.
struct RawRequestHead: Equatable {
    /// Bytes of the head, its blank line included.
    var length: Int
    /// May `FrontDoorHandler` answer it itself: a GET or HEAD over HTTP/1.1 with one `Host`,
    /// an origin-form target, and nothing Hummingbird must handle (a `Connection` field other
    /// than `keep-alive`, `Expect`, values beyond ASCII).
    var isPlain: Bool
    var isHead: Bool

    /// What the bytes at the start of a buffer are.
    enum Reading: Equatable {
        /// A head's start without its end yet.
        case incomplete
        /// A whole head of a request without a body: it ends where `length` says.
        case head(RawRequestHead)
        /// A request Folio answers with a refusal and a close, without NIO's decoder, which
        /// would answer it with a bare 400 or not at all (docs/API.md, "Connections").
        case refuse(Refusal)
        /// Anything else (a method NIO's decoder takes but GET and HEAD, a body announced, an
        /// upgrade, malformed or unusual syntax, a head longer than `maxLength`): the
        /// connection's bytes go to NIO's decoder from here on.
        case handOnForever
    }

    enum Refusal: Equatable {
        /// `CONNECT`, or a method NIO's decoder does not know (any other token, lower-case
        /// `get` too): 405. `length` is the head's when its end came within `maxLength`,
        /// nil when the refusal goes by the request line alone.
        case method(length: Int?)
        /// A request line whose target is longer than twice `maxTargetBytes` (its end may not
        /// have come yet): 414, from the bytes read so far.
        case targetTooLong(bytes: Int)
    }

    /// Longest head read here, past its request line; longer ones go to NIO's decoder (whose
    /// caps are higher).
    static let maxLength = 16 * 1024
    /// What a request line may hold beside its target: a method of NIO's decoder or a refused
    /// one, two spaces and the version.
    static let requestLineSlack = 64

    /// - Parameter maxTargetBytes: `limits.maxURLBytes`. A target up to twice as long (which
    ///   the decoder's caps take) goes the usual way, to the gateway's 414 on a connection that
    ///   stays open; a longer one is refused here, whether its line has ended or not (a request
    ///   line is awaited until it is that long).
    static func read(_ bytes: UnsafeRawBufferPointer, maxTargetBytes: Int = 8 << 10) -> Reading {
        var lines = Lines(bytes)
        // Request line: method SP origin-or-other-target SP HTTP-version.
        let refusedTarget = 2 * maxTargetBytes
        let lineLimit = max(maxLength, refusedTarget + requestLineSlack)
        guard let line = lines.next(limit: lineLimit) else {
            if lines.malformed { return .handOnForever }
            guard bytes.count >= maxLength else { return .incomplete }
            // A long request line still coming: awaited while it may be an allowed one.
            guard RequestLine.startsWithMethod(bytes) else { return .handOnForever }
            return bytes.count > lineLimit ? .refuse(.targetTooLong(bytes: bytes.count)) : .incomplete
        }
        guard let requestLine = RequestLine(bytes, line) else { return .handOnForever }
        if requestLine.target.count > refusedTarget {
            return .refuse(.targetTooLong(bytes: requestLine.target.count))
        }
        if requestLine.method == .decoder { return .handOnForever }
        let headLimit = lines.position + maxLength
        var isPlain = requestLine.isPlain
        var hosts = 0
        while true {
            guard let line = lines.next(limit: headLimit) else {
                if requestLine.method == .refused, lines.malformed || bytes.count >= headLimit {
                    return .refuse(.method(length: nil))
                }
                return lines.malformed || bytes.count >= headLimit ? .handOnForever : .incomplete
            }
            if line.isEmpty { break }
            guard let field = FieldLine(bytes, line) else {
                return requestLine.method == .refused ? .refuse(.method(length: nil)) : .handOnForever
            }
            switch field.kind {
            case .framing where requestLine.method != .refused: return .handOnForever
            case .host: hosts += 1
            case .connection: if !field.valueIs("keep-alive", in: bytes) { isPlain = false }
            case .expect, .proxyConnection: isPlain = false
            case .framing, .other: break
            }
            if !field.isASCII { isPlain = false }
        }
        if requestLine.method == .refused { return .refuse(.method(length: lines.position)) }
        if hosts != 1 { isPlain = false }
        return .head(RawRequestHead(length: lines.position, isPlain: isPlain, isHead: requestLine.method == .head))
    }

    /// Hummingbird's request for a head `read` found plain, or refused with its length, as NIO's
    /// decoder and `HTTP1ToHTTPServerCodec` would make it: the first `Host` is the authority,
    /// not a field. With `requestLineOnly`, the fields are not read (a refusal by the request
    /// line alone).
    static func request(_ bytes: UnsafeRawBufferPointer, requestLineOnly: Bool = false) -> HTTPRequest? {
        var lines = Lines(bytes)
        guard let line = lines.next(limit: bytes.count), let requestLine = RequestLine(bytes, line) else { return nil }
        var fields = HTTPFields()
        var authority: String?
        while !requestLineOnly, let line = lines.next(limit: bytes.count), !line.isEmpty {
            guard let field = FieldLine(bytes, line) else { return nil }
            let value = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[field.value]), as: UTF8.self)
            if field.kind == .host, authority == nil {
                authority = value
                continue
            }
            let nameText = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[field.name]), as: UTF8.self)
            guard let name = HTTPField.Name(nameText) else { return nil }
            fields.append(HTTPField(name: name, value: value))
        }
        let path = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[requestLine.target]), as: UTF8.self)
        let methodText = String(
            decoding: UnsafeRawBufferPointer(rebasing: bytes[requestLine.methodBytes]), as: UTF8.self)
        guard let method = HTTPRequest.Method(methodText) else { return nil }
        return HTTPRequest(method: method, scheme: "http", authority: authority, path: path, headerFields: fields)
    }

    /// The method and the start of the target of a request line whose end has not come (a
    /// refusal for a target too long), for the access log and the route's CORS fields.
    static func requestLineStart(_ bytes: UnsafeRawBufferPointer, keeping count: Int = 1024) -> HTTPRequest? {
        var i = 0
        while i < bytes.count, isTokenByte(bytes[i]) { i += 1 }
        guard i > 0, i < bytes.count, bytes[i] == UInt8(ascii: " ") else { return nil }
        let methodText = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[0..<i]), as: UTF8.self)
        var end = i + 1
        while end < min(bytes.count, i + 1 + count), bytes[end] > 0x20, bytes[end] < 0x7F { end += 1 }
        let path = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(i + 1)..<end]), as: UTF8.self)
        guard let method = HTTPRequest.Method(methodText) else { return nil }
        return HTTPRequest(method: method, scheme: "http", authority: nil, path: path, headerFields: [:])
    }
}

extension RawRequestHead {
    /// CRLF-ended lines from the start of the bytes.
    private struct Lines {
        let bytes: UnsafeRawBufferPointer
        /// Start of the next line.
        var position = 0

        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        /// The next line's bytes (without CRLF), or nil when no line end is in the first `limit`
        /// bytes yet, or the line has a CR or LF that is not its CRLF end (`position` then stays).
        mutating func next(limit: Int) -> Range<Int>? {
            let limit = min(bytes.count, limit)
            var i = position
            while i < limit {
                let byte = bytes[i]
                if byte == UInt8(ascii: "\r") {
                    guard i + 1 < limit else { return nil }
                    guard bytes[i + 1] == UInt8(ascii: "\n") else {
                        malformed = true
                        return nil
                    }
                    defer { position = i + 2 }
                    return position..<i
                }
                if byte == UInt8(ascii: "\n") {
                    malformed = true
                    return nil
                }
                i += 1
            }
            return nil
        }

        /// A bare CR or LF was met.
        var malformed = false
    }

    private struct RequestLine {
        var methodBytes: Range<Int>
        var target: Range<Int>
        var method: Method
        var isPlain: Bool

        enum Method: Equatable {
            case get
            case head
            /// Another method NIO's decoder takes: the connection goes to the decoder.
            case decoder
            /// `CONNECT` (an upgrade to NIO's decoder, which reads nothing after it) or a method
            /// the decoder refuses: answered 405 here.
            case refused
        }

        /// Nil for anything but `token SP target SP HTTP/1.x` in visible ASCII, and for a GET or
        /// HEAD whose target is not in origin form (Hummingbird answers those).
        init?(_ bytes: UnsafeRawBufferPointer, _ line: Range<Int>) {
            var i = line.lowerBound
            while i < line.upperBound, isTokenByte(bytes[i]) { i += 1 }
            methodBytes = line.lowerBound..<i
            guard !methodBytes.isEmpty, i < line.upperBound, bytes[i] == UInt8(ascii: " ") else { return nil }
            i += 1
            let targetStart = i
            while i < line.upperBound, bytes[i] > 0x20, bytes[i] < 0x7F { i += 1 }
            target = targetStart..<i
            guard !target.isEmpty, i < line.upperBound, bytes[i] == UInt8(ascii: " ") else { return nil }
            let version = (i + 1)..<line.upperBound
            guard version.count == 8, RawRequestHead.matches(bytes, version, "HTTP/1.", prefix: true) else {
                return nil
            }
            let minor = bytes[version.upperBound - 1]
            guard minor == UInt8(ascii: "0") || minor == UInt8(ascii: "1") else { return nil }
            method = Self.method(bytes, methodBytes)
            if method == .get || method == .head, bytes[targetStart] != UInt8(ascii: "/") { return nil }
            isPlain = minor == UInt8(ascii: "1")
        }

        static func method(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Method {
            if RawRequestHead.matches(bytes, range, "GET") { return .get }
            if RawRequestHead.matches(bytes, range, "HEAD") { return .head }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            return decoderMethods.contains(text) ? .decoder : .refused
        }

        /// The methods of NIO's HTTP/1 parser (llhttp's HTTP method map) but GET, HEAD and
        /// CONNECT, in its spelling (upper case): any other token is refused by the parser.
        static let decoderMethods: Set<String> = [
            "DELETE", "POST", "PUT", "OPTIONS", "TRACE", "COPY", "LOCK", "MKCOL", "MOVE", "PROPFIND", "PROPPATCH",
            "SEARCH", "UNLOCK", "BIND", "REBIND", "UNBIND", "ACL", "REPORT", "MKACTIVITY", "CHECKOUT", "MERGE",
            "M-SEARCH", "NOTIFY", "SUBSCRIBE", "UNSUBSCRIBE", "PATCH", "PURGE", "MKCALENDAR", "LINK", "UNLINK",
            "SOURCE", "QUERY",
        ]

        /// The bytes start with `token SP`: a request line, however long its target.
        static func startsWithMethod(_ bytes: UnsafeRawBufferPointer) -> Bool {
            var i = 0
            while i < bytes.count, i <= 32, isTokenByte(bytes[i]) { i += 1 }
            return i > 0 && i < bytes.count && bytes[i] == UInt8(ascii: " ")
        }
    }

    private struct FieldLine {
        var name: Range<Int>
        var value: Range<Int>
        var kind: Kind
        var isASCII: Bool

        enum Kind {
            /// `Content-Length`, `Transfer-Encoding`, `Upgrade`: a body or another protocol follows.
            case framing
            case host
            case connection
            /// `Proxy-Connection`: HTTP/1.0 clients' `Connection`, which NIO's decoder also reads.
            case proxyConnection
            case expect
            case other
        }

        /// Nil unless `token ":" OWS value OWS` with a value of visible ASCII, obs-text, SP
        /// and HTAB (no folding: a line may not start with whitespace).
        init?(_ bytes: UnsafeRawBufferPointer, _ line: Range<Int>) {
            var i = line.lowerBound
            while i < line.upperBound, isTokenByte(bytes[i]) { i += 1 }
            name = line.lowerBound..<i
            guard !name.isEmpty, i < line.upperBound, bytes[i] == UInt8(ascii: ":") else { return nil }
            i += 1
            while i < line.upperBound, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
            var end = line.upperBound
            while end > i, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
            value = i..<end
            var ascii = true
            for k in value {
                let byte = bytes[k]
                if byte >= 0x80 {
                    ascii = false
                } else if byte < 0x20 && byte != 0x09 || byte == 0x7F {
                    return nil
                }
            }
            isASCII = ascii
            kind = Self.kind(bytes, name)
        }

        static func kind(_ bytes: UnsafeRawBufferPointer, _ name: Range<Int>) -> Kind {
            func named(_ text: StaticString) -> Bool { RawRequestHead.matches(bytes, name, text, anyCase: true) }
            switch name.count {
            case 4: return named("host") ? .host : .other
            case 6: return named("expect") ? .expect : .other
            case 7: return named("upgrade") ? .framing : .other
            case 10: return named("connection") ? .connection : .other
            case 16: return named("proxy-connection") ? .proxyConnection : .other
            case 14: return named("content-length") ? .framing : .other
            case 17: return named("transfer-encoding") ? .framing : .other
            default: return .other
            }
        }

        /// The value is `text` (lower case), in any case.
        func valueIs(_ text: StaticString, in bytes: UnsafeRawBufferPointer) -> Bool {
            RawRequestHead.matches(bytes, value, text, anyCase: true)
        }
    }

    /// `bytes[range]` is `text` (or starts with it, when `prefix`); with `anyCase`, `text` is
    /// lower case and the bytes may be in any case (ASCII letters only differ by bit 0x20).
    private static func matches(
        _ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, _ text: StaticString, prefix: Bool = false,
        anyCase: Bool = false
    ) -> Bool {
        let count = text.utf8CodeUnitCount
        guard prefix ? range.count >= count : range.count == count else { return false }
        let fold: UInt8 = anyCase ? 0x20 : 0
        for k in 0..<count where bytes[range.lowerBound + k] | fold != text.utf8Start[k] { return false }
        return true
    }

    /// RFC 9110 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
