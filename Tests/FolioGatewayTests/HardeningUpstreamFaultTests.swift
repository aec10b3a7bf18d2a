import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import FolioGateway

/// One way an upstream can answer badly, with what Folio must answer instead (docs/API.md,
/// "Errors").
enum UpstreamFault: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case gzipBomb, deflateBomb, declaredTooLarge, countedTooLarge, tooManyItems, tooDeep
    case resetMidBody, truncatedBody, unterminatedChunks, slowDrip, slowHead
    case htmlWith200, stalledErrorPage, badChunkThenStall, badBurstThenStall, invalidUTF8, notAList, serverError,
        notFound, foreignRedirect
    case notModifiedUnasked, redirectWithoutLocation

    var testDescription: String { rawValue }

    /// The limits a fault test runs with, small enough to breach cheaply. The timeout is
    /// generous: a healthy answer, or a fault that is not about time, must stay well inside it
    /// on a loaded machine with a debug build (a size breach is found only as the body arrives,
    /// which the whole suite in parallel on two cores once slowed past 5 s). The slow faults
    /// get 5 s, well inside their 13 and 15 s.
    static func limits(for fault: UpstreamFault? = nil) -> String {
        """
        limits:
          maxUpstreamBytes: 64KiB
          maxItems: 100
          maxJSONDepth: 8
          upstreamTimeout: \(fault == .slowDrip || fault == .slowHead ? "5s" : "30s")
        """
    }

    /// The status the client sees on a miss, and the problem code (nil: passed through).
    var expected: (status: Int, code: String?) {
        switch self {
        case .gzipBomb, .deflateBomb, .declaredTooLarge, .countedTooLarge: (502, "upstream-body-too-large")
        case .tooManyItems, .tooDeep: (502, "upstream-limit-exceeded")
        case .resetMidBody, .truncatedBody, .unterminatedChunks: (502, "upstream-failed")
        case .slowDrip, .slowHead: (504, "upstream-timeout")
        case .htmlWith200, .stalledErrorPage, .badChunkThenStall, .badBurstThenStall, .invalidUTF8, .notAList:
            (502, "bad-upstream-body")
        case .serverError: (503, nil)
        case .notFound: (404, nil)
        case .foreignRedirect: (502, "upstream-redirect-refused")
        case .notModifiedUnasked, .redirectWithoutLocation: (502, "upstream-unexpected-status")
        }
    }

    /// A word the problem detail must contain, so the client learns which limit or fault it was.
    var detailMentions: String? {
        switch self {
        case .gzipBomb, .deflateBomb, .declaredTooLarge, .countedTooLarge: "maxUpstreamBytes"
        case .tooManyItems: "maxItems"
        case .tooDeep: "maxJSONDepth"
        case .invalidUTF8: "UTF-8"
        case .htmlWith200, .stalledErrorPage, .badChunkThenStall, .badBurstThenStall: "invalid JSON"
        case .notModifiedUnasked: "304"
        case .redirectWithoutLocation: "Location"
        default: nil
        }
    }

    /// What the upstream sends. `good` is a healthy list body, the start of several faults.
    func reply(good: String) -> TestUpstream.Reply {
        let json = [("Content-Type", "application/json")]
        switch self {
        case .gzipBomb, .deflateBomb:
            // Decodes to 2 MiB (32× the limit) from a few KiB on the wire.
            let bomb = Array(("[" + String(repeating: "0,", count: 1 << 20) + "0]").utf8)
            let deflate = self == .deflateBomb
            return TestUpstream.Reply(
                headers: json + [("Content-Encoding", deflate ? "deflate" : "gzip")],
                body: Gzip.compress(bomb, zlibWrapper: deflate))
        case .declaredTooLarge:
            return .json("[" + String(repeating: "1,", count: 40_000) + "1]")
        case .countedTooLarge:
            // No Content-Length: only counting the bytes can catch it. Few, long items, so
            // that no other limit is reached first.
            let chunk = Array(("\"" + String(repeating: "x", count: 8190) + "\",").utf8)
            return TestUpstream.Reply(
                headers: json, chunks: [Array("[".utf8)] + Array(repeating: chunk, count: 12) + [Array("1]".utf8)])
        case .tooManyItems:
            return .json("[" + (0...100).map(String.init).joined(separator: ",") + "]")
        case .tooDeep:
            return .json(#"[{"a":"# + String(repeating: "[", count: 8) + String(repeating: "]", count: 8) + "}]")
        case .resetMidBody:
            var reply = TestUpstream.Reply(headers: json, chunks: [Array(good.utf8.prefix(good.utf8.count / 2))])
            reply.reset = true
            return reply
        case .truncatedBody:
            let bytes = Array(good.utf8)
            return TestUpstream.Reply(
                headers: json + [("Content-Length", String(bytes.count))],
                body: Array(bytes.prefix(bytes.count / 2)), truncate: true)
        case .unterminatedChunks:
            return TestUpstream.Reply(headers: json, chunks: [Array(good.utf8.prefix(40))], truncate: true)
        case .slowDrip:
            // Each part comes well within any idle timer, the whole far beyond upstreamTimeout.
            let bytes = Array(good.utf8)
            let parts = stride(from: 0, to: bytes.count, by: bytes.count / 12 + 1).map {
                Array(bytes[$0..<min(bytes.count, $0 + bytes.count / 12 + 1)])
            }
            return TestUpstream.Reply(headers: json, chunks: parts, chunkDelay: .seconds(1))
        case .slowHead:
            return TestUpstream.Reply(headers: json, body: Array(good.utf8), delay: .seconds(15))
        case .htmlWith200:
            return TestUpstream.Reply(
                headers: [("Content-Type", "text/html")],
                body: Array("<html><body><h1>Service temporarily unavailable</h1></body></html>".utf8))
        case .stalledErrorPage:
            // An error page whose first part is all there is for far longer than the fill may
            // take: the fill fails on that part (502), not at upstreamTimeout (504).
            var reply = TestUpstream.Reply(
                headers: [("Content-Type", "text/html")],
                chunks: [Array("<html><body><h1>Service".utf8), Array(" unavailable</h1></body></html>".utf8)])
            reply.beforeChunk = { index in
                if index > 0 { try? await Task.sleep(for: .seconds(60)) }
            }
            return reply
        case .badChunkThenStall, .badBurstThenStall:
            // A good start, a bad part (after a pause, or at once in the same burst), then
            // nothing for longer than the fill may take: the fill fails on the bad part (502),
            // not at upstreamTimeout (504), even when that part waits in a batch for more bytes.
            var reply = TestUpstream.Reply(
                headers: [("Content-Type", "application/json")],
                chunks: [Array(#"[{"id":1},"#.utf8), Array("oops".utf8), Array("]".utf8)])
            let pause = self == .badChunkThenStall
            reply.beforeChunk = { index in
                if index == 1, pause { try? await Task.sleep(for: .milliseconds(100)) }
                if index == 2 { try? await Task.sleep(for: .seconds(60)) }
            }
            return reply
        case .invalidUTF8:
            return TestUpstream.Reply(
                headers: json,
                body: Array(#"[{"id":1,"name":"ok"},{"id":2,"name":"bad "#.utf8) + [0xC3, 0x28] + Array(#""}]"#.utf8))
        case .notAList:
            return .json(#"{"error":"maintenance"}"#)
        case .serverError:
            return .json(#"{"error":"overloaded"}"#, status: 503, headers: [("Retry-After", "7")])
        case .notFound:
            return .json(#"{"error":"gone"}"#, status: 404)
        case .foreignRedirect:
            return .redirect(to: "http://192.0.2.1:9/elsewhere")
        case .notModifiedUnasked:
            // Folio sent no validators (the good list has none): a 304 answers nothing it asked.
            return TestUpstream.Reply(status: 304)
        case .redirectWithoutLocation:
            return .json(#"{"moved":true}"#, status: 302)
        }
    }
}

/// Every upstream fault and upstream-side limit, through a real gateway against a real local
/// upstream: a clear answer on a miss, a good snapshot kept and served within `staleIfError`,
/// and nothing partial ever cached.
@Suite struct HardeningUpstreamFaultTests {
    static let good = objectsBody(20)

    /// Every request is stale at once (ttl 0), so each one goes upstream; failures fall back
    /// to the last good list for 5 minutes.
    static func yaml(_ upstream: String, _ fault: UpstreamFault? = nil) -> String {
        gatewayYAML(
            upstream: upstream, route: "cache: { ttl: 0s, staleWhileRevalidate: 0s, staleIfError: 5m }",
            top: UpstreamFault.limits(for: fault))
    }

    @Test(arguments: UpstreamFault.allCases)
    func coldFaultIsAnsweredClearlyAndNothingIsCached(_ fault: UpstreamFault) async throws {
        let reply = fault.reply(good: Self.good.body)
        try await withTestUpstream({ _ in reply }) { upstream in
            try await withGateway(Self.yaml(upstream.baseURL, fault)) { client, _ in
                let failed = try await client.execute(uri: "/objects", method: .get)
                let (status, code) = fault.expected
                #expect(failed.header("Cache-Status") == "folio; fwd=miss; fwd-status=\(status)")
                if code != nil {
                    let detail = try checkProblem(failed, status: status, code: code)
                    if let word = fault.detailMentions { #expect(detail.contains(word), "detail: \(detail)") }
                    #expect(!detail.contains("127.0.0.1"), "the upstream's address stays in the logs")
                } else {
                    #expect(Int(failed.status.code) == status)
                    #expect(failed.text == String(decoding: reply.body, as: UTF8.self), "the upstream's own error body")
                }

                upstream.setHandler { _ in .json(Self.good.body) }
                let healed = try await client.execute(uri: "/objects", method: .get)
                #expect(healed.status == .ok)
                #expect(
                    healed.header("Cache-Status") == "folio; fwd=miss; stored", "the fault left nothing in the cache")
                #expect(try rawItems(healed.text).count == 20)
            }
        }
    }

    @Test(arguments: UpstreamFault.allCases)
    func goodSnapshotIsServedThroughAFault(_ fault: UpstreamFault) async throws {
        try await withTestUpstream({ _ in .json(Self.good.body) }) { upstream in
            try await withGateway(Self.yaml(upstream.baseURL, fault)) { client, _ in
                let first = try await client.execute(uri: "/objects?pageSize=5&offset=5", method: .get)
                #expect(first.status == .ok)
                let token = try #require(try first.json.paging["snapshot"] as? String)

                let reply = fault.reply(good: Self.good.body)
                upstream.setHandler { _ in reply }
                let stale = try await client.execute(uri: "/objects?pageSize=5&offset=5", method: .get)
                #expect(stale.status == .ok)
                let status = fault.expected.status
                #expect(
                    stale.header("Cache-Status")?.hasPrefix("folio; fwd=stale; fwd-status=\(status); ttl=-") == true,
                    "\(stale.header("Cache-Status") ?? "none")")
                #expect(try stale.json.paging["snapshot"] as? String == token)
                #expect(try rawItems(stale.text) == Array(Self.good.elements[5..<10]))

                upstream.setHandler { _ in .json(Self.good.body) }
                let healed = try await client.execute(uri: "/objects?pageSize=5&offset=5", method: .get)
                #expect(healed.header("Cache-Status") == "folio; fwd=stale; fwd-status=200; stored")
                #expect(try healed.json.paging["snapshot"] as? String == token, "the fault changed nothing")
            }
        }
    }

    /// A bypassed request (credentials under `authorized: bypass`) keeps its row's exact
    /// `Cache-Status` (docs/API.md, "Cache-Status") whether the upstream's error is passed through or Folio answers a
    /// problem of its own. The slow faults are left out: their time says nothing more here.
    @Test(arguments: UpstreamFault.allCases.filter { $0 != .slowDrip && $0 != .slowHead })
    func aBypassedFaultKeepsTheBypassRow(_ fault: UpstreamFault) async throws {
        let reply = fault.reply(good: Self.good.body)
        try await withTestUpstream({ _ in reply }) { upstream in
            try await withGateway(Self.yaml(upstream.baseURL, fault)) { client, _ in
                let failed = try await client.execute(
                    uri: "/objects", method: .get, headers: [.authorization: "Bearer alice"])
                #expect(Int(failed.status.code) == fault.expected.status)
                #expect(failed.header("Cache-Status") == "folio; fwd=bypass")
            }
        }
    }

    @Test func refusedConnectionServesTheGoodSnapshot() async throws {
        let upstream = try await TestUpstream.start { _ in .json(Self.good.body) }
        try await withGateway(Self.yaml(upstream.baseURL)) { client, _ in
            let first = try await client.execute(uri: "/objects", method: .get)
            let token = try #require(try first.json.paging["snapshot"] as? String)
            await upstream.stop()
            let stale = try await client.execute(uri: "/objects", method: .get)
            #expect(stale.status == .ok)
            #expect(stale.header("Cache-Status")?.hasPrefix("folio; fwd=stale; fwd-status=502; ttl=-") == true)
            #expect(try stale.json.paging["snapshot"] as? String == token)
        }
    }

    #if canImport(Glibc)
        @Test func connectTimeoutIs504() async throws {
            let blackhole = try BlackholeListener()
            defer { blackhole.close() }
            let yaml = gatewayYAML(
                upstream: blackhole.url, top: "limits:\n  connectTimeout: 300ms\n  upstreamTimeout: 20s")
            try await withGateway(yaml) { client, _ in
                let response = try await client.execute(uri: "/objects", method: .get)
                try checkProblem(response, status: 504, code: "upstream-connect-timeout")
                #expect(response.header("Cache-Status") == "folio; fwd=miss; fwd-status=504")
            }
        }
    #endif

    @Test func afterStaleIfErrorTheFaultIsAnswered() async throws {
        try await withTestUpstream({ _ in .json(Self.good.body) }) { upstream in
            let yaml = gatewayYAML(
                upstream: upstream.baseURL, route: "cache: { ttl: 0s, staleWhileRevalidate: 0s, staleIfError: 0s }",
                top: UpstreamFault.limits())
            try await withGateway(yaml) { client, _ in
                #expect(try await client.execute(uri: "/objects", method: .get).status == .ok)
                upstream.setHandler { _ in UpstreamFault.htmlWith200.reply(good: "") }
                let failed = try await client.execute(uri: "/objects", method: .get)
                try checkProblem(failed, status: 502, code: "bad-upstream-body")
            }
        }
    }

    @Test func duplicateKeysPassThroughByteForByte() async throws {
        let elements = [
            #"{"id":1,"id":2,"name":"a"}"#, #"{"a":{"b":1,"b":{"b":[1,1]}},"a":null}"#,
            #"{ "x" : 1 ,"x":"1", "X":true }"#,
        ]
        try await withTestUpstream({ _ in .json("[" + elements.joined(separator: ",") + "]") }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL)) { client, _ in
                let response = try await client.execute(uri: "/objects", method: .get)
                #expect(try rawItems(response.text) == elements)
                let bare = try await client.execute(uri: "/objects?pageSize=2&offset=1", method: .get)
                #expect(try rawItems(bare.text) == Array(elements[1...]))
            }
        }
    }

    @Test func deepNestingWithinALargeLimitDoesNotRecurse() async throws {
        // 200,000 levels: far beyond any call stack if anything on the path recursed.
        let depth = 200_000
        let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let body = #"[{"name":"b","deep":"# + deep + #"},{"name":"a","deep":1}]"#
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            let yaml = gatewayYAML(
                upstream: upstream.baseURL, route: "sort: [name]\nsortable: [deep]\nsectionKey: name",
                top: "limits:\n  maxJSONDepth: 1000000")
            try await withGateway(yaml) { client, _ in
                let page = try await client.execute(uri: "/objects?sort=-deep", method: .get)
                #expect(page.status == .ok)
                #expect(try rawItems(page.text).count == 2)
                #expect(page.text.contains(deep), "the deep item is passed through byte for byte")
                let sections = try await client.execute(uri: "/objects?groupBy=alphabetical&metadataOnly", method: .get)
                #expect(sections.status == .ok)
            }
        }
    }

    @Test func limitsAreInclusive() async throws {
        // Exactly maxItems items, exactly maxJSONDepth deep, exactly maxUpstreamBytes long.
        let items =
            "[" + (1...99).map(String.init).joined(separator: ",") + ","
            + String(repeating: "[", count: 7) + String(repeating: "]", count: 7) + "]"
        let padded = items + String(repeating: " ", count: (64 << 10) - items.utf8.count)
        try await withTestUpstream({ _ in .json(padded) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, top: UpstreamFault.limits())) { client, _ in
                let response = try await client.execute(uri: "/objects?metadataOnly", method: .get)
                #expect(response.status == .ok, "\(response.text)")
                #expect(try response.json.paging["totalCount"] as? Int == 100)
            }
            upstream.setHandler { _ in .json(padded + " ") }
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, top: UpstreamFault.limits())) { client, _ in
                let detail = try checkProblem(try await client.execute(uri: "/objects", method: .get), status: 502)
                #expect(detail.contains("maxUpstreamBytes"), "detail: \(detail)")
            }
        }
    }
}
