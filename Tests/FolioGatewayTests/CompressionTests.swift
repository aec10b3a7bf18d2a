import CBrotli
import CZlib
import CZstd
import FolioConfiguration
import FolioEngine
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import FolioGateway

/// Decoders for the tests, from the same C libraries: what a client would run on the body.
enum Decode {
    static func brotli(_ bytes: [UInt8], size: Int) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: size + 16)
        var produced = output.count
        let result = output.withUnsafeMutableBufferPointer { target in
            BrotliDecoderDecompress(bytes.count, bytes, &produced, target.baseAddress)
        }
        return result == BROTLI_DECODER_RESULT_SUCCESS ? Array(output[..<produced]) : nil
    }

    static func zstd(_ bytes: [UInt8], size: Int) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: size + 16)
        let produced = output.withUnsafeMutableBufferPointer { target in
            ZSTD_decompress(target.baseAddress, target.count, bytes, bytes.count)
        }
        return ZSTD_isError(produced) == 0 ? Array(output[..<produced]) : nil
    }

    /// A gzip member (windowBits 15 + 16 refuses zlib or raw deflate framing).
    static func gzip(_ bytes: [UInt8], size: Int) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return nil
        }
        defer { inflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: size + 16)
        let result = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                return inflate(&stream, Z_FINISH)
            }
        }
        return result == Z_STREAM_END ? Array(output[..<Int(stream.total_out)]) : nil
    }

    static func body(_ bytes: [UInt8], coding: ContentCoding, size: Int) -> [UInt8]? {
        switch coding {
        case .br: brotli(bytes, size: size)
        case .gzip: gzip(bytes, size: size)
        case .zstd: zstd(bytes, size: size)
        }
    }
}

@Suite("Accept-Encoding negotiation (RFC 9110 12.5.3)")
struct AcceptEncodingTests {
    static let offered: [ContentCoding] = [.br, .gzip]

    @Test(
        arguments: [
            (nil, nil),  // no header: identity
            ("", nil),
            ("gzip", ContentCoding.gzip),
            ("br", .br),
            ("gzip, br", .br),  // equal q: the config's order
            ("br;q=0.5, gzip", .gzip),  // higher q wins
            ("br;q=0.5, gzip;q=0.4", .br),
            ("GZIP", .gzip),  // case-insensitive
            ("gzip;q=0", nil),  // q=0 refuses
            ("br;q=0, gzip;q=0", nil),
            ("*", .br),  // any coding
            ("*;q=0.1, gzip;q=0.5", .gzip),
            ("br;q=0, *", .gzip),  // * stands for codings not named
            ("*;q=0", nil),
            ("identity", nil),  // only identity: identity
            ("deflate, compress", nil),  // nothing Folio offers: identity, never 406
            ("gzip;q=1.0, br;q=0.999", .gzip),
            ("br;q=2", nil),  // unreadable weight refuses
            ("br;q=abc, gzip", .gzip),
            (" br ; q=0.8 ,gzip;Q=0.9", .gzip),
            ("gzip;q=0.2, gzip;q=0.9, br;q=0.5", .gzip),  // a coding named twice keeps its best weight
            ("gzip;q=0, gzip, br;q=0.5", .br),  // ... unless one of them refuses it
            ("gzip;q=0, x-gzip", nil),
            ("*;q=0, *", nil),
            ("identity, gzip;q=0.5", nil),  // identity preferred: identity
            ("identity;q=1, *;q=0.5", nil),
            ("identity, gzip", .gzip),  // equal q: the smaller body
            ("identity;q=0.5, gzip", .gzip),
            ("identity;q=0, br;q=0.1", .br),
            ("br;q=0.5, gzip;q=0.5, *", nil),  // * covers identity when it is not named
            ("gzip;q=0.5, *", .br),  // ... and br too: equal q, the config's order
            ("x-gzip", .gzip),  // the same coding (RFC 9110 8.4.1.3)
            ("X-GZIP;q=0.9, br;q=0.5", .gzip),
        ] as [(String?, ContentCoding?)])
    func negotiates(_ header: String?, _ expected: ContentCoding?) {
        #expect(AcceptEncoding.negotiate(header, offered: Self.offered) == expected, "\(header ?? "nil")")
    }

    @Test func offeredOrderBreaksTies() {
        #expect(AcceptEncoding.negotiate("gzip, br, zstd", offered: [.zstd, .gzip, .br]) == .zstd)
        #expect(AcceptEncoding.negotiate("gzip, br", offered: [.gzip, .br]) == .gzip)
        #expect(AcceptEncoding.negotiate("br", offered: []) == nil)
    }
}

@Suite("Compressed list answers")
struct CompressionTests {
    static func yaml(_ upstream: String, compression: String = "{ encodings: [br, gzip, zstd] }", route: String = "")
        -> String
    {
        gatewayYAML(
            upstream: upstream, route: "sectionKey: name\ngroupable: [tag]\n" + route,
            top: "  compression: \(compression)")
    }

    @Test func compressorsRoundTrip() {
        let (body, _) = objectsBody(300)
        let bytes = Array(body.utf8)
        for coding in ContentCoding.allCases {
            let compressed = Compressor.compress(bytes, as: coding)
            #expect(compressed.count < bytes.count / 3, "\(coding): \(compressed.count) of \(bytes.count)")
            #expect(Decode.body(compressed, coding: coding, size: bytes.count) == bytes, "\(coding)")
        }
        for coding in ContentCoding.allCases {
            #expect(Decode.body(Compressor.compress([], as: coding), coding: coding, size: 0) == [], "\(coding) empty")
        }
    }

    /// Each coding's body decodes to the identity body byte for byte, with its own ETag and
    /// `Vary: Accept-Encoding`; HEAD carries the same headers.
    @Test(arguments: ContentCoding.allCases)
    func decodedBodyIsTheIdentityBody(_ coding: ContentCoding) async throws {
        try await withTestUpstream({ _ in .json(objectsBody(200).body) }) { upstream in
            try await withGateway(Self.yaml(upstream.baseURL)) { client, _ in
                let uri = "/objects?pageSize=100&offset=20"
                let identity = try await client.execute(uri: uri, method: .get)
                #expect(identity.header("Content-Encoding") == nil)
                #expect(identity.header("Vary")?.contains("Accept-Encoding") == true)
                let identityTag = try #require(identity.header("ETag"))

                let coded = try await client.execute(uri: uri, method: .get, headers: [.acceptEncoding: coding.token])
                #expect(coded.status == .ok)
                #expect(coded.header("Content-Encoding") == coding.token)
                #expect(coded.header("Vary")?.contains("Accept-Encoding") == true)
                #expect(coded.header("ETag") == ETag.coded(identityTag, coding.token))
                #expect(coded.header("ETag")?.hasSuffix("-\(coding.token)\"") == true)
                let bytes = Array(buffer: coded.body)
                #expect(coded.header("Content-Length") == String(bytes.count))
                #expect(bytes.count < identity.body.readableBytes / 2)
                let identityBytes = Array(buffer: identity.body)
                #expect(Decode.body(bytes, coding: coding, size: identityBytes.count) == identityBytes)

                let head = try await client.execute(uri: uri, method: .head, headers: [.acceptEncoding: coding.token])
                #expect(head.body.readableBytes == 0)
                for name in ["Content-Encoding", "Content-Length", "ETag", "Vary", "Link", "X-Total-Count"] {
                    #expect(head.header(name) == coded.header(name), "\(name)")
                }
            }
        }
    }

    /// `If-None-Match` compares with the tag of the coding this request would get.
    @Test func ifNoneMatchIsPerCoding() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(100).body) }) { upstream in
            try await withGateway(Self.yaml(upstream.baseURL)) { client, _ in
                let uri = "/objects?pageSize=50"
                let identityTag = try #require(try await client.execute(uri: uri, method: .get).header("ETag"))
                let brTag = ETag.coded(identityTag, "br")
                let brWithIdentityTag = try await client.execute(
                    uri: uri, method: .get, headers: [.acceptEncoding: "br", .ifNoneMatch: identityTag])
                #expect(brWithIdentityTag.status == .ok)
                let notModified = try await client.execute(
                    uri: uri, method: .get, headers: [.acceptEncoding: "br", .ifNoneMatch: brTag])
                #expect(notModified.status == .notModified)
                #expect(notModified.header("ETag") == brTag)
                #expect(notModified.header("Vary")?.contains("Accept-Encoding") == true)
                #expect(notModified.header("Content-Encoding") == nil)
                let identityAgain = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: brTag])
                #expect(identityAgain.status == .ok)
                #expect(
                    try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: identityTag]).status
                        == .notModified)
            }
        }
    }

    @Test func smallBodiesAndProblemsGoOutAsTheyAre() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(100).body) }) { upstream in
            try await withGateway(Self.yaml(upstream.baseURL, compression: "{ minBytes: 2KiB }")) { client, _ in
                let small = try await client.execute(
                    uri: "/objects?pageSize=2", method: .get, headers: [.acceptEncoding: "br"])
                #expect(small.body.readableBytes < 2048)
                #expect(small.header("Content-Encoding") == nil)
                #expect(small.header("Vary")?.contains("Accept-Encoding") == true)
                #expect(small.header("ETag")?.hasSuffix("-br\"") == false)
                let large = try await client.execute(
                    uri: "/objects?pageSize=60", method: .get, headers: [.acceptEncoding: "br"])
                #expect(large.header("Content-Encoding") == "br")
                let problem = try await client.execute(
                    uri: "/objects?pageSize=abc&\(String(repeating: "x", count: 3000))", method: .get,
                    headers: [.acceptEncoding: "br"])
                #expect(problem.status == .badRequest)
                #expect(problem.header("Content-Encoding") == nil)
                #expect(problem.header("Content-Type") == "application/problem+json")
                let zstdOnly = try await client.execute(
                    uri: "/objects?pageSize=60", method: .get, headers: [.acceptEncoding: "zstd"])
                #expect(zstdOnly.header("Content-Encoding") == nil, "zstd is not in the default encodings")
            }
        }
    }

    @Test func emptyEncodingsTurnCompressionOff() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(100).body) }) { upstream in
            try await withGateway(Self.yaml(upstream.baseURL, compression: "{ encodings: [] }")) { client, _ in
                let page = try await client.execute(
                    uri: "/objects?pageSize=80", method: .get, headers: [.acceptEncoding: "br, gzip"])
                #expect(page.header("Content-Encoding") == nil)
                #expect(page.header("Vary")?.contains("Accept-Encoding") != true)
            }
        }
    }

    /// 206, `metadataOnly` and section indexes are list answers too; forwarded answers are not.
    @Test func rangesMetadataAndSectionsAreCompressedForwardsAreNot() async throws {
        try await withTestUpstream({ request in
            request.method == "POST"
                ? .json(String(repeating: "{\"ok\":true},", count: 200)) : .json(objectsBody(300).body)
        }) { upstream in
            try await withGateway(Self.yaml(upstream.baseURL, compression: "{ encodings: [gzip], minBytes: 0 }")) {
                client, _ in
                let range = try await client.execute(
                    uri: "/objects", method: .get, headers: [.range: "items=10-109", .acceptEncoding: "gzip"])
                #expect(range.status == .partialContent)
                #expect(range.header("Content-Encoding") == "gzip")
                #expect(range.header("Content-Range") == "items 10-109/300")
                for uri in [
                    "/objects?metadataOnly", "/objects?groupBy=alphabetical&metadataOnly",
                    "/objects?groupBy=tag&metadataOnly",
                ] {
                    let identity = try await client.execute(uri: uri, method: .get)
                    let coded = try await client.execute(uri: uri, method: .get, headers: [.acceptEncoding: "gzip"])
                    #expect(coded.header("Content-Encoding") == "gzip", "\(uri)")
                    let plain = Array(buffer: identity.body)
                    #expect(Decode.gzip(Array(buffer: coded.body), size: plain.count) == plain, "\(uri)")
                }
                let forwarded = try await client.execute(
                    uri: "/objects", method: .post, headers: [.acceptEncoding: "gzip"])
                #expect(forwarded.status == .ok)
                #expect(forwarded.header("Content-Encoding") == nil)
            }
        }
    }

    /// Compressed once per snapshot, query and coding; kept bytes count against the bound.
    @Test func compressedPagesAreKeptPerSnapshotAndCounted() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(300).body) }) { upstream in
            try await withGateway(Self.yaml(upstream.baseURL)) { client, server in
                let first = try await client.execute(
                    uri: "/objects?pageSize=100", method: .get, headers: [.acceptEncoding: "br"])
                let key = try server.gateway.cacheKey(route: "objects", upstreamURL: upstream.baseURL)
                let snapshot = try #require(await server.gateway.cache.current(key))
                // The compressed body (per normalized query and coding) and the whole answer
                // (per request target and Accept-Encoding).
                #expect(snapshot.rendered.count == 2)
                let kept = snapshot.rendered.retainedBytes
                #expect(kept > 2 * first.body.readableBytes)
                // One compressed body in memory, which the whole answer shares.
                let tag = try #require(first.header("ETag"))
                let compressed = try #require(snapshot.rendered.answer(tag, as: CompressedBody.self))
                #expect(Array(buffer: compressed.bytes) == Array(buffer: first.body))
                let asked = HTTPRequest(
                    method: .get, scheme: nil, authority: nil, path: "/objects?pageSize=100",
                    headerFields: [.acceptEncoding: "br"])
                let answer = try #require(
                    snapshot.rendered.answer(
                        KeptListAnswer.key(asked, route: server.gateway.routes[0]), as: KeptListAnswer.self))
                #expect(
                    answer.body.withUnsafeReadableBytes { $0.baseAddress }
                        == compressed.bytes.withUnsafeReadableBytes { $0.baseAddress })
                #expect(await server.gateway.cache.statistics().bytes == snapshot.retainedBytes)
                let again = try await client.execute(
                    uri: "/objects?pageSize=100", method: .get, headers: [.acceptEncoding: "br"])
                #expect(Array(buffer: again.body) == Array(buffer: first.body))
                #expect(snapshot.rendered.count == 2)
                #expect(snapshot.rendered.retainedBytes == kept)
                _ = try await client.execute(
                    uri: "/objects?pageSize=100", method: .get, headers: [.acceptEncoding: "gzip"])
                _ = try await client.execute(
                    uri: "/objects?pageSize=100&offset=100", method: .get, headers: [.acceptEncoding: "br"])
                #expect(snapshot.rendered.count == 6)
                #expect(await server.gateway.cache.statistics().bytes == snapshot.retainedBytes)
            }
        }
    }

    @Test func renderedPagesStayWithinTheirLimit() {
        let pages = RenderedPages(limit: 1000)
        #expect(pages.store([UInt8](repeating: 1, count: 300), for: "a"))
        #expect(pages.store([UInt8](repeating: 2, count: 300), for: "b"))
        _ = pages.page("a")
        #expect(pages.store([UInt8](repeating: 3, count: 300), for: "c"))
        #expect(pages.page("b") == nil, "the least recently used answer goes first")
        #expect(pages.page("a") != nil && pages.page("c") != nil)
        #expect(pages.retainedBytes <= 1000)
        #expect(!pages.store([UInt8](repeating: 4, count: 2000), for: "d"), "larger than the whole limit")
        #expect(!pages.store([UInt8](repeating: 5, count: 10), for: "a"), "kept once")
    }

    @Test func configRejectsUnknownAndRepeatedCodings() {
        let problems = ConfigFixture.problems(
            """
            server:
              compression: { encodings: [br, deflate, br], minBytes: 1KB }
            routes:
              - { name: a, path: /a, upstream: "http://x/a" }
            """)
        let messages = problems.map(\.description)
        #expect(
            messages.contains { $0.contains("server.compression.encodings[1]") && $0.contains("'deflate'") },
            "\(messages)")
        #expect(
            messages.contains { $0.contains("server.compression.encodings[2]") && $0.contains("twice") }, "\(messages)")
        #expect(messages.contains { $0.contains("server.compression.minBytes") }, "\(messages)")
        #expect(problems.count == 3)
    }
}
