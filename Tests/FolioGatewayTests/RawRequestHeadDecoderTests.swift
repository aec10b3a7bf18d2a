import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypesHTTP1
import Testing

@testable import FolioGateway

/// `RawRequestHead` against NIO's own HTTP/1 decoder (llhttp), on heads damaged at random: where
/// the front door says a bodyless head ends, the decoder must read one whole request ending
/// there (else the two would disagree on where the next request starts), and a head it may
/// answer must be the request the decoder and `HTTP1ToHTTPServerCodec` make.
@Suite("Raw request heads against NIO's decoder")
struct RawRequestHeadDecoderTests {
    /// xorshift64*: a fixed sequence, so a failure repeats.
    struct Random {
        var state: UInt64
        mutating func below(_ bound: Int) -> Int {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return Int((state &* 2_685_821_657_736_338_717) >> 33) % bound
        }
    }

    static let heads = [
        "GET /objects?pageSize=2 HTTP/1.1\r\nHost: folio\r\n\r\n",
        "HEAD / HTTP/1.1\r\nHost: a:8080\r\nAccept: */*\r\nConnection: keep-alive\r\n\r\n",
        "GET /o?q=a%20b HTTP/1.1\r\nHost: f\r\nX-Request-ID: r1\r\nIf-None-Match: W/\"x\"\r\nOrigin: https://a\r\n\r\n",
        "POST /objects HTTP/1.1\r\nHost: folio\r\nContent-Length: 2\r\n\r\n{}",
        "GET /objects HTTP/1.0\r\nHost: folio\r\n\r\n",
    ]

    /// Bytes that matter to a head's framing and syntax.
    static let alphabet: [[UInt8]] = [
        [13], [10], [13, 10], [32], [9], [58], [0], [127], [128], [0xC3, 0xA9], [65], [47], [63],
        Array("\r\nContent-Length: 3".utf8), Array("\r\nTransfer-Encoding: chunked".utf8), Array("\r\nHost: b".utf8),
        Array("\r\nConnection: close".utf8), Array("\r\n x".utf8), Array("HTTP/1.1".utf8),
    ]

    /// What the decoder makes of `bytes`: the parts of its first request, or nil on an error.
    static func decode(_ bytes: [UInt8]) -> [HTTPServerRequestPart]? {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(HTTPRequestDecoder()))
        defer { _ = try? channel.finish() }
        do {
            try channel.writeInbound(ByteBuffer(bytes: bytes))
            var parts: [HTTPServerRequestPart] = []
            while let part = try channel.readInbound(as: HTTPServerRequestPart.self) { parts.append(part) }
            return parts
        } catch {
            return nil
        }
    }

    @Test func whereTheFrontDoorSaysAHeadEndsTheDecoderAgrees() throws {
        var random = Random(state: 0x9E37_79B9_7F4A_7C15)
        let next = Array("GET /next HTTP/1.1\r\nHost: n\r\n\r\n".utf8)
        var heads = 0
        var plain = 0
        for round in 0..<12000 {
            var bytes = Array(Self.heads[random.below(Self.heads.count)].utf8)
            for _ in 0..<(1 + random.below(3)) {
                let at = random.below(bytes.count + 1)
                let piece = Self.alphabet[random.below(Self.alphabet.count)]
                if random.below(2) == 0, at < bytes.count {
                    bytes.replaceSubrange(at...at, with: piece)
                } else {
                    bytes.insert(contentsOf: piece, at: at)
                }
            }
            let reading = bytes.withUnsafeBytes { RawRequestHead.read($0) }
            guard case .head(let head) = reading else { continue }
            heads += 1
            let text = String(decoding: bytes, as: UTF8.self).debugDescription
            // The head alone is one whole request without a body.
            let parts = try #require(Self.decode(Array(bytes[..<head.length])), "round \(round): \(text)")
            guard parts.count == 2, case .head(let decoded) = parts[0], case .end = parts[1] else {
                Issue.record("round \(round): \(parts) for \(text)")
                continue
            }
            // Another request after it starts where the front door says (llhttp takes none after
            // a request that closes the connection, and neither does Hummingbird).
            if decoded.isKeepAlive {
                let both = try #require(Self.decode(Array(bytes[..<head.length]) + next), "round \(round): \(text)")
                guard both.count == 4, case .head(let following) = both[2], case .end = both[3] else {
                    Issue.record("round \(round): \(both) for \(text)")
                    continue
                }
                #expect(following.uri == "/next", "round \(round): \(text)")
            }
            guard head.isPlain else { continue }
            plain += 1
            let ours = try #require(
                Array(bytes[..<head.length]).withUnsafeBytes { RawRequestHead.request($0) }, "round \(round)")
            let theirs = try HTTPRequest(decoded, secure: false, splitCookie: false)
            #expect(ours.method == theirs.method, "round \(round): \(text)")
            #expect(ours.path == theirs.path, "round \(round): \(text)")
            #expect(ours.authority == theirs.authority, "round \(round): \(text)")
            #expect(ours.headerFields == theirs.headerFields, "round \(round): \(text)")
            #expect(head.isHead == (decoded.method == .HEAD))
        }
        // The damage must leave enough heads whole for the comparison to mean something.
        #expect(heads > 700, "\(heads) heads read whole")
        #expect(plain > 350, "\(plain) plain heads")
    }
}
