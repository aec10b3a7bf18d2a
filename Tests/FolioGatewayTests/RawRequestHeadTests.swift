import HTTPTypes
import NIOCore
import Testing

@testable import FolioGateway

/// `RawRequestHead`: which bytes `FrontDoorHandler` reads as a whole bodyless head, which it may
/// answer itself, and which go to NIO's decoder for the rest of the connection.
@Suite("Raw request heads")
struct RawRequestHeadTests {
    static func read(_ text: String) -> RawRequestHead.Reading {
        Array(text.utf8).withUnsafeBytes { RawRequestHead.read($0) }
    }

    static func request(_ text: String) -> HTTPRequest? {
        Array(text.utf8).withUnsafeBytes { RawRequestHead.request($0) }
    }

    static let get = "GET /objects?pageSize=2 HTTP/1.1\r\nHost: folio\r\n\r\n"

    @Test func aPlainGetIsReadWholeAndUpToItsBlankLine() {
        let next = "GET /other HTTP/1.1\r\nHost: folio\r\n\r\n"
        #expect(Self.read(Self.get) == .head(RawRequestHead(length: Self.get.utf8.count, isPlain: true, isHead: false)))
        #expect(
            Self.read(Self.get + next)
                == .head(RawRequestHead(length: Self.get.utf8.count, isPlain: true, isHead: false)))
        let head = "HEAD / HTTP/1.1\r\nhost: a\r\nAccept: */*\r\nConnection: Keep-Alive\r\n\r\n"
        #expect(Self.read(head) == .head(RawRequestHead(length: head.utf8.count, isPlain: true, isHead: true)))
    }

    @Test func everyPrefixOfAHeadIsIncomplete() {
        let text = "GET /a HTTP/1.1\r\nHost: folio\r\nX-Request-ID: abc\r\n\r\n"
        let bytes = Array(text.utf8)
        for count in 0..<bytes.count {
            let reading = Array(bytes[..<count]).withUnsafeBytes { RawRequestHead.read($0) }
            #expect(reading == .incomplete, "\(count) bytes")
        }
    }

    /// Read whole, but handed to the decoder: a GET or HEAD Hummingbird must answer.
    @Test(arguments: [
        "GET /objects HTTP/1.0\r\nHost: folio\r\nConnection: keep-alive\r\n\r\n",
        "GET /objects HTTP/1.0\r\nHost: folio\r\n\r\n",
        "GET /objects HTTP/1.1\r\n\r\n",
        "GET /objects HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
        "GET /objects HTTP/1.1\r\nHost: folio\r\nConnection: close\r\n\r\n",
        "GET /objects HTTP/1.1\r\nHost: folio\r\nConnection: keep-alive, x\r\n\r\n",
        "GET /objects HTTP/1.1\r\nHost: folio\r\nProxy-Connection: close\r\n\r\n",
        "GET /objects HTTP/1.1\r\nHost: folio\r\nproxy-connection: keep-alive\r\n\r\n",
        "GET /objects HTTP/1.1\r\nHost: folio\r\nExpect: 100-continue\r\n\r\n",
        "GET /objects HTTP/1.1\r\nHost: folio\r\nX-Name: caf\u{E9}\r\n\r\n",
    ])
    func handedOnWhole(_ text: String) {
        #expect(Self.read(text) == .head(RawRequestHead(length: text.utf8.count, isPlain: false, isHead: false)))
    }

    /// A body, another protocol, or syntax the strict reading does not take: the decoder reads
    /// the connection from there on.
    @Test(arguments: [
        "POST /objects HTTP/1.1\r\nHost: folio\r\nContent-Length: 2\r\n\r\n{}",
        "GET /objects HTTP/1.1\r\nHost: folio\r\ncontent-length: 0\r\n\r\n",
        "POST /objects HTTP/1.1\r\nHost: folio\r\nTransfer-Encoding: chunked\r\n\r\n",
        "GET /chat HTTP/1.1\r\nHost: folio\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
        "POST /objects HTTP/1.1\r\nHost: folio\r\n\r\n",
        "DELETE /objects HTTP/1.1\r\nHost: folio\r\n\r\n",
        "OPTIONS * HTTP/1.1\r\nHost: folio\r\n\r\n",
        "GET http://folio/objects HTTP/1.1\r\nHost: folio\r\n\r\n",
        "GET /objects HTTP/1.1\nHost: folio\r\n\r\n",
        "GET /objects HTTP/1.1\r\nHost: folio\n\r\n",
        "GET /objects HTTP/1.1\r\nHost: folio\r\n\n",
        "GET /objects HTTP/1.1\r\nHost: folio\r\r\n\r\n",
        "GET /objects HTTP/1.1\r\nHost: folio\r\nX-A: 1\r\n  folded\r\n\r\n",
        "GET /objects HTTP/1.1\r\nHost : folio\r\n\r\n",
        "GET /objects HTTP/1.1\r\nHost: fo\u{1}lio\r\n\r\n",
        "GET /objects HTTP/1.1\r\nHost: folio\r\nX: \u{7F}\r\n\r\n",
        "GET /obj ects HTTP/1.1\r\nHost: folio\r\n\r\n",
        "GET  /objects HTTP/1.1\r\nHost: folio\r\n\r\n",
        "GET /objects HTTP/2.0\r\nHost: folio\r\n\r\n",
        "GET /objects HTTP/1.1 \r\nHost: folio\r\n\r\n",
        "\r\nGET /objects HTTP/1.1\r\nHost: folio\r\n\r\n",
        "G\u{E9}T /objects HTTP/1.1\r\nHost: folio\r\n\r\n",
        "PROPFIND /objects HTTP/1.1\r\nHost: folio\r\n\r\n",
        "M-SEARCH * HTTP/1.1\r\nHost: folio\r\n\r\n",
        "GET /objects HTTP/1.1\r\n: empty\r\n\r\n",
    ])
    func handedOnForever(_ text: String) {
        #expect(Self.read(text) == .handOnForever)
    }

    @Test func aHeadLongerThanTheCapGoesToTheDecoder() {
        let long =
            "GET /objects HTTP/1.1\r\nHost: folio\r\nX-Pad: "
            + String(repeating: "a", count: RawRequestHead.maxLength) + "\r\n\r\n"
        #expect(Self.read(long) == .handOnForever)
        let unfinished = "GET /objects HTTP/1.1\r\nX-Pad: " + String(repeating: "a", count: RawRequestHead.maxLength)
        #expect(Self.read(unfinished) == .handOnForever)
        let garbage = String(repeating: "a", count: RawRequestHead.maxLength)
        #expect(Self.read(garbage) == .handOnForever, "no request line: the decoder's 400")
    }

    /// `CONNECT` and methods NIO's decoder refuses (any other token, lower case too) are the
    /// front door's 405, with the whole head when it came within the cap.
    @Test(arguments: [
        "CONNECT folio:443 HTTP/1.1\r\nHost: folio\r\n\r\n",
        "CONNECT /objects HTTP/1.1\r\nHost: folio\r\nContent-Length: 5\r\n\r\n",
        "GEAT /objects HTTP/1.1\r\nHost: folio\r\n\r\n",
        "get /objects HTTP/1.1\r\nHost: folio\r\n\r\n",
        "FOO * HTTP/1.0\r\n\r\n",
    ])
    func refusedMethods(_ text: String) throws {
        #expect(Self.read(text) == .refuse(.method(length: text.utf8.count)))
        let request = try #require(Self.request(text))
        #expect(request.method.rawValue == String(text.prefix { $0 != " " }))
        #expect(Self.read(String(text.dropLast(2))) == .incomplete)
    }

    /// A request target is read up to twice `maxTargetBytes` (even past `maxLength`): the
    /// gateway's 414 answers those past `maxTargetBytes` on an open connection. Longer ones are
    /// refused here, whether their line has ended or not.
    @Test func targetsPastTwiceTheLimitAreRefused() {
        func read(_ text: String, limit: Int) -> RawRequestHead.Reading {
            Array(text.utf8).withUnsafeBytes { RawRequestHead.read($0, maxTargetBytes: limit) }
        }
        let limit = 50_000
        let allowed = "GET /" + String(repeating: "a", count: 2 * limit - 1)
        let whole = allowed + " HTTP/1.1\r\nHost: folio\r\n\r\n"
        #expect(
            read(whole, limit: limit) == .head(RawRequestHead(length: whole.utf8.count, isPlain: true, isHead: false)))
        #expect(read(allowed, limit: limit) == .incomplete)
        #expect(read(allowed + "a HTTP/1.1\r\n\r\n", limit: limit) == .refuse(.targetTooLong(bytes: 2 * limit + 1)))
        let endless = allowed + String(repeating: "a", count: RawRequestHead.requestLineSlack + 10)
        #expect(read(endless, limit: limit) == .refuse(.targetTooLong(bytes: endless.utf8.count)))
        #expect(
            read("POST /" + String(repeating: "a", count: 2 * limit) + " HTTP/1.1\r\n", limit: limit)
                == .refuse(.targetTooLong(bytes: 2 * limit + 1)))
    }

    @Test func theRequestIsTheOneNIOsDecoderAndTheCodecWouldMake() throws {
        let text =
            "GET /objects?pageSize=2&q=a%20b HTTP/1.1\r\nHost: folio:8080\r\nAccept:  application/json \r\n"
            + "X-Request-ID: req-7\r\nAccept: text/plain\r\nIf-None-Match: W/\"x\"\r\n\r\n"
        let request = try #require(Self.request(text))
        #expect(request.method == .get)
        #expect(request.scheme == "http")
        #expect(request.authority == "folio:8080")
        #expect(request.path == "/objects?pageSize=2&q=a%20b")
        #expect(request.headerFields[.host] == nil, "the first Host is the authority")
        #expect(request.headerFields[values: .accept] == ["application/json", "text/plain"])
        #expect(request.headerFields[.xRequestID] == "req-7")
        #expect(request.headerFields[.ifNoneMatch] == "W/\"x\"")
        #expect(request.headerFields.count == 4)
        let head = try #require(Self.request("HEAD / HTTP/1.1\r\nHost: a\r\n\r\n"))
        #expect(head.method == .head)
        #expect(head.path == "/")
    }
}

/// `ResponseHeadWriter`: the bytes NIO's response encoder would write for the same head.
@Suite("Response heads as bytes")
struct ResponseHeadWriterTests {
    static func head(_ status: HTTPResponse.Status, _ fields: HTTPFields, bodyBytes: Int) -> String {
        head(SentAnswer(status: status, headers: fields), bodyBytes: bodyBytes)
    }

    static func head(_ answer: SentAnswer, bodyBytes: Int) -> String {
        var buffer = ByteBufferAllocator().buffer(capacity: 0)
        ResponseHeadWriter.write(answer, date: "Thu, 26 Nov 2026 02:50:52 GMT", bodyBytes: bodyBytes, to: &buffer)
        return String(buffer: buffer)
    }

    /// A kept answer's status line and fields, made once, and the fields added per request
    /// after them: the same bytes as writing every field.
    @Test func aKeptHeadAndTheFieldsAfterItAreTheWholeHead() {
        let kept: HTTPFields = [.vary: "Accept-Encoding", .contentType: "application/json", .contentLength: "2"]
        var sent = kept
        sent.append(HTTPField(name: .cacheStatus, value: "folio; hit"))
        sent.append(HTTPField(name: .xRequestID, value: "req-7"))
        for status in [HTTPResponse.Status.ok, .partialContent, .notModified] {
            let whole = Self.head(SentAnswer(status: status, headers: sent), bodyBytes: 2)
            let withKept = Self.head(
                SentAnswer(status: status, headers: sent, keptHead: KeptHead(status: status, fields: kept)),
                bodyBytes: 2)
            #expect(withKept == whole)
            // The same fields as `added`, after the kept ones (how kept answers are sent).
            let withAdded = Self.head(
                SentAnswer(
                    status: status, headers: kept, added: Array(sent[kept.count...]),
                    keptHead: KeptHead(status: status, fields: kept)),
                bodyBytes: 2)
            #expect(withAdded == whole)
            #expect(whole.contains("\r\nCache-Status: folio; hit\r\nX-Request-ID: req-7\r\nDate: "))
        }
        // A Content-Length among the added fields is the framing; none is added after it.
        let lengthAdded = Self.head(
            SentAnswer(status: .ok, headers: [:], added: [HTTPField(name: .contentLength, value: "5")]), bodyBytes: 5)
        #expect(lengthAdded == Self.head(.ok, [.contentLength: "5"], bodyBytes: 5))
        #expect(lengthAdded.components(separatedBy: "Content-Length").count == 2)
        let noLength = Self.head(
            SentAnswer(status: .ok, headers: [.cacheStatus: "x"], keptHead: KeptHead(status: .ok, fields: [:])),
            bodyBytes: 5)
        #expect(noLength.contains("\r\nContent-Length: 5\r\n"))
    }

    @Test func statusLineFieldsDateAndTheBlankLine() {
        let fields: HTTPFields = [.contentType: "application/json", .contentLength: "2", .eTag: "W/\"a\""]
        #expect(
            Self.head(.ok, fields, bodyBytes: 2)
                == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nETag: W/\"a\"\r\n"
                + "Date: Thu, 26 Nov 2026 02:50:52 GMT\r\n\r\n")
        #expect(
            Self.head(.notFound, [:], bodyBytes: 0)
                == "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nDate: Thu, 26 Nov 2026 02:50:52 GMT\r\n\r\n")
    }

    @Test func aLengthIsAddedOnlyWhereABodyMayBe() {
        #expect(Self.head(.ok, [:], bodyBytes: 12).contains("\r\nContent-Length: 12\r\n"))
        #expect(!Self.head(.notModified, [.eTag: "\"a\""], bodyBytes: 0).contains("Content-Length"))
        #expect(!Self.head(.noContent, [:], bodyBytes: 0).contains("Content-Length"))
        let custom = HTTPResponse.Status(code: 299, reasonPhrase: "Fine")
        #expect(Self.head(custom, [:], bodyBytes: 0).hasPrefix("HTTP/1.1 299 Fine\r\n"))
    }
}

/// `IdleTimeout`: Hummingbird's idle rule, kept by `FrontDoorHandler`.
@Suite("Idle timeout")
struct IdleTimeoutTests {
    @Test func closedOnlyWhenNothingIsOwedAndTheTimeoutHasPassed() {
        let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
        let timeout = TimeAmount.seconds(60)
        #expect(
            IdleTimeout.decide(now: start + .seconds(60), lastActive: start, busy: false, timeout: timeout) == .close)
        #expect(
            IdleTimeout.decide(now: start + .seconds(90), lastActive: start, busy: false, timeout: timeout) == .close)
        #expect(
            IdleTimeout.decide(now: start + .seconds(20), lastActive: start, busy: false, timeout: timeout)
                == .checkAgain(in: .seconds(40)))
        #expect(
            IdleTimeout.decide(now: start + .seconds(90), lastActive: start, busy: true, timeout: timeout)
                == .checkAgain(in: .seconds(60)))
    }
}
