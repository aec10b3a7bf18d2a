import FolioEngine
import FolioTestSupport
import HummingbirdTesting
import Synchronization
import Testing

@testable import FolioGateway

/// docs/API.md, "Proxy headers": a compressed upstream body is validated as it inflates, so a
/// compression bomb fails at its first bad byte, or at `maxUpstreamBytes` of decoded bytes,
/// without the upstream having to send it all (issue 39). A real gateway and a real upstream
/// that writes the bomb in 64 KiB parts and holds back its last part until the test has the
/// gateway's answer: a gateway that needed the whole body would wait for it until
/// `upstreamTimeout` (504).
@Suite("Compression bombs fail as they inflate")
struct CompressedBombTests {
    /// One bomb the upstream serves, and what the gateway must answer.
    struct Bomb: Sendable, CustomTestStringConvertible {
        var name: String
        var coding: String
        var prefix: String
        var fill: UInt8
        var code: String
        var detail: String

        var testDescription: String { "\(name) (\(coding))" }

        /// 1 GiB decoded, about 1 MB on the wire.
        var body: [UInt8] {
            CompressionBomb.make(
                prefix: Array(prefix.utf8), fill: fill, count: 1 << 30, zlibWrapper: coding == "deflate")
        }
    }

    static let bombs: [Bomb] = ["gzip", "deflate"].flatMap { coding in
        [
            Bomb(
                name: "zeros", coding: coding, prefix: "", fill: 0, code: "bad-upstream-body",
                detail: "invalid JSON at byte 0"),
            Bomb(
                name: "a list of zeros", coding: coding, prefix: "[", fill: 0, code: "bad-upstream-body",
                detail: "invalid JSON at byte 1"),
            // Valid JSON all the way: only the decoded size can stop it.
            Bomb(
                name: "one huge string", coding: coding, prefix: "[\"", fill: UInt8(ascii: "a"),
                code: "upstream-body-too-large", detail: "maxUpstreamBytes"),
        ]
    }

    /// The upstream's reply: `body` in 64 KiB parts, the last held until `answered` opens.
    static func reply(_ bomb: Bomb, body: [UInt8], answered: Latch) -> TestUpstream.Reply {
        let parts = CompressionBomb.parts(body)
        var reply = TestUpstream.Reply(
            headers: [("Content-Type", "application/json"), ("Content-Encoding", bomb.coding)], chunks: parts)
        reply.beforeChunk = { index in
            if index == parts.count - 1 { await answered.wait() }
        }
        return reply
    }

    @Test(arguments: Self.bombs)
    func aBombFailsBeforeTheUpstreamHasSentIt(_ bomb: Bomb) async throws {
        let answered = Latch()
        let reply = Self.reply(bomb, body: bomb.body, answered: answered)
        try await withTestUpstream({ _ in reply }) { upstream in
            let yaml = gatewayYAML(
                upstream: upstream.baseURL, top: "limits:\n  maxUpstreamBytes: 8MiB\n  upstreamTimeout: 20s")
            try await withGateway(yaml) { client, _ in
                // Answered while the last part is held back: the gateway stopped inflating on its
                // own, not for want of bytes (that would be a 504 at `upstreamTimeout`).
                let failed = try await client.execute(uri: "/objects", method: .get)
                answered.open()
                let detail = try checkProblem(failed, status: 502, code: bomb.code)
                #expect(detail.contains(bomb.detail), "\(detail)")
            }
        }
    }
}
