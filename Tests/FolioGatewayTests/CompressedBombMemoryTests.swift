import FolioTestSupport
import Foundation
import Testing

/// docs/API.md, "Proxy headers": a compression bomb costs about the bytes read, not the bytes it
/// inflates to (issue 39). The built `folio` in its own process, so its peak resident memory
/// (`VmHWM`) is its own and not the test run's. The bounds are generous (the figures are in
/// BENCHMARKS.md, "Compression bombs", from `scripts/bomb-memory.sh`): after the fix 2–4 MiB
/// for one bomb and 10–19 MiB for ten; before it, 66–126 MiB and 123–213 MiB.
@Suite("Compression bombs cost the bytes read (executable)")
struct CompressedBombMemoryTests {
    @Test(arguments: ["gzip", "deflate"])
    func aBombAndTenAtOnceBarelyRaiseThePeak(coding: String) async throws {
        let bomb = CompressionBomb.make(count: 1 << 30, zlibWrapper: coding == "deflate")
        let parts = CompressionBomb.parts(bomb)
        let good = Gzip.compress(Array(objectsBody(2000).body.utf8), zlibWrapper: coding == "deflate")
        let headers = [("Content-Type", "application/json"), ("Content-Encoding", coding)]
        try await withTestUpstream({ request in
            request.path.hasSuffix("/warm")
                ? TestUpstream.Reply(headers: headers, body: good) : TestUpstream.Reply(headers: headers, chunks: parts)
        }) { upstream in
            let folio = try FolioProcess(
                yaml: gatewayYAML(
                    upstream: upstream.baseURL + "/list/{id}", admin: true,
                    name: "lists", path: "/lists/{id}"))
            defer { folio.stop() }
            let port = try await folio.ports().client
            try await withHTTPClient { http in
                // Warm up: connections, threads and the allocator's arenas of a good compressed fill.
                for size in 1...5 {
                    let warm = try await http.answer("http://127.0.0.1:\(port)/lists/warm?pageSize=\(size)")
                    #expect(warm.status == 200)
                }
                let before = try folio.memory("VmHWM")
                let one = try await http.answer("http://127.0.0.1:\(port)/lists/bomb")
                #expect(one.status == 502 && one.text.contains("invalid JSON at byte 0"), "\(one.text)")
                let afterOne = try folio.memory("VmHWM")
                let ten = try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in 0..<10 {
                        group.addTask { try await http.answer("http://127.0.0.1:\(port)/lists/bomb\(index)").status }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(ten == Array(repeating: 502, count: 10))
                let afterTen = try folio.memory("VmHWM")
                #expect(afterOne - before < 16 << 20, "one bomb: +\((afterOne - before) >> 20) MiB")
                #expect(afterTen - before < 48 << 20, "ten bombs: +\((afterTen - before) >> 20) MiB")
            }
        }
    }
}
