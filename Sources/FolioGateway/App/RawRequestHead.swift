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
        /// Anything else (a method but GET and HEAD, a body announced, an upgrade, malformed or
        /// unusual syntax, a head longer than `maxLength`): the connection's bytes go to NIO's
        /// decoder from here on.
        case handOnForever
    }

    /// Longest head read here; longer ones go to NIO's decoder (whose caps are higher).
    static let maxLength = 16 * 1024

    static func read(_ bytes: UnsafeRawBufferPointer) -> Reading {
        var lines = Lines(bytes)
        // Request line: method SP origin-or-other-target SP HTTP-version.
        guard let line = lines.next() else { return lines.incompleteOrTooLong }
        guard let requestLine = RequestLine(bytes, line) else { return .handOnForever }
        var isPlain = requestLine.isPlain
        var hosts = 0
        while true {
            guard let line = lines.next() else { return lines.incompleteOrTooLong }
            if line.isEmpty { break }
            guard let field = FieldLine(bytes, line) else { return .handOnForever }
            switch field.kind {
            case .framing: return .handOnForever
            case .host: hosts += 1
            case .connection: if !field.valueIs("keep-alive", in: bytes) { isPlain = false }
            case .expect: isPlain = false
            case .other: break
            }
            if !field.isASCII { isPlain = false }
        }
        if hosts != 1 { isPlain = false }
        return .head(RawRequestHead(length: lines.position, isPlain: isPlain, isHead: requestLine.isHead))
    }

    /// Hummingbird's request for a head `read` found plain, as NIO's decoder and
    /// `HTTP1ToHTTPServerCodec` would make it: the first `Host` is the authority, not a field.
    static func request(_ bytes: UnsafeRawBufferPointer) -> HTTPRequest? {
        var lines = Lines(bytes)
        guard let line = lines.next(), let requestLine = RequestLine(bytes, line) else { return nil }
        var fields = HTTPFields()
        var authority: String?
        while let line = lines.next(), !line.isEmpty {
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
        return HTTPRequest(
            method: requestLine.isHead ? .head : .get, scheme: "http", authority: authority, path: path,
            headerFields: fields)
    }
}

extension RawRequestHead {
    /// CRLF-ended lines from the start of the bytes.
    private struct Lines {
        let bytes: UnsafeRawBufferPointer
        /// Start of the next line.
        var position = 0

        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        /// The next line's bytes (without CRLF), or nil when no line end is in the bytes yet, or
        /// the line has a CR or LF that is not its CRLF end (`position` then stays).
        mutating func next() -> Range<Int>? {
            let limit = min(bytes.count, RawRequestHead.maxLength)
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

        /// What a head without its end is: still incomplete, or not for us.
        var incompleteOrTooLong: Reading {
            malformed || bytes.count >= RawRequestHead.maxLength ? .handOnForever : .incomplete
        }
    }

    private struct RequestLine {
        var target: Range<Int>
        var isHead: Bool
        var isPlain: Bool

        /// Nil for anything but `GET` or `HEAD SP /target SP HTTP/1.x` in visible ASCII: other
        /// methods are rare on a cached list, and llhttp refuses some tokens (`CONNECT` reads
        /// as an upgrade, unknown methods are errors), so their connections go to the decoder.
        init?(_ bytes: UnsafeRawBufferPointer, _ line: Range<Int>) {
            var i = line.lowerBound
            while i < line.upperBound, isTokenByte(bytes[i]) { i += 1 }
            let method = line.lowerBound..<i
            guard !method.isEmpty, i < line.upperBound, bytes[i] == UInt8(ascii: " ") else { return nil }
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
            let isGet = RawRequestHead.matches(bytes, method, "GET")
            isHead = RawRequestHead.matches(bytes, method, "HEAD")
            guard isGet || isHead, bytes[targetStart] == UInt8(ascii: "/") else { return nil }
            isPlain = minor == UInt8(ascii: "1")
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
