import FolioConfiguration
import FolioTestSupport
import Foundation
import Testing

@testable import FolioGateway

/// `folio probe` (issue 20) against real upstreams on loopback ports.
@Suite("folio probe reports what a fill would see")
struct ProbeTests {
    private func probe(_ yaml: String, routes: [String] = [], parameters: [String: String] = [:]) async throws
        -> [ProbeReport]
    {
        try await Probe.run(
            ConfigurationLoader.parse(yaml: yaml, file: "probe.yaml"), routes: routes, parameters: parameters)
    }

    @Test func aListWithCacheControlAndAnETag() async throws {
        let (body, _) = objectsBody(10)
        try await withTestUpstream({ _ in .json(body, headers: [("Cache-Control", "max-age=120"), ("ETag", #""v1""#)]) }
        ) { upstream in
            let report = try #require(try await probe(gatewayYAML(upstream: "\(upstream.baseURL)/objects")).first)
            #expect(report.ok)
            #expect(report.status == 200)
            #expect(report.items == 10)
            #expect(report.bytes == body.utf8.count)
            #expect(report.pages.count == 1)
            #expect(report.pages.first?.cacheControl == "max-age=120")
            #expect(
                report.freshness
                    == .init(cacheable: true, seconds: 120, mustRevalidate: false, why: "Cache-Control: max-age=120"))
            #expect(report.etag == #""v1""#)
            #expect(report.problem == nil)
            #expect(report.text.contains("10 items, \(body.utf8.count) bytes in 1 page"))
            #expect(report.text.contains("fresh for 120 s"))
            #expect(report.text.contains(#"validators: ETag "v1""#))
            #expect(upstream.requests.count == 1)
            #expect(upstream.requests.first?.header("Accept") == "application/json")
        }
    }

    @Test func withoutCachingHeadersTheRouteTTLRules() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(3).body) }) { upstream in
            let yaml = gatewayYAML(upstream: "\(upstream.baseURL)/objects", route: "cache: { ttl: 45s }")
            let report = try #require(try await probe(yaml).first)
            #expect(report.freshness?.seconds == 45)
            #expect(report.freshness?.why.contains("cache.ttl") == true)
            #expect(report.etag == nil && report.lastModified == nil)
            #expect(report.text.contains("validators: none"))
        }
    }

    @Test func noStoreFillsButIsNotCached() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(3).body, headers: [("Cache-Control", "no-store")]) }) {
            upstream in
            let report = try #require(try await probe(gatewayYAML(upstream: "\(upstream.baseURL)/objects")).first)
            #expect(report.ok)
            #expect(report.freshness?.cacheable == false)
            #expect(report.freshness?.why == "not cacheable: no-store")
        }
    }

    @Test func anErrorStatusWouldNotFill() async throws {
        try await withTestUpstream({ _ in .json(#"{"error":"down"}"#, status: 503) }) { upstream in
            let report = try #require(try await probe(gatewayYAML(upstream: "\(upstream.baseURL)/objects")).first)
            #expect(!report.ok)
            #expect(report.status == 503)
            #expect(report.problem?.code == "upstream-status")
            #expect(report.problem?.status == 503)
            #expect(report.freshness == nil)
        }
    }

    @Test(arguments: [
        ("<html>", "", "bad-upstream-body"),
        (#"{"rows":[1,2]}"#, "items: /data", "bad-upstream-body"),
        (objectsBody(10).body, "", "upstream-limit-exceeded"),
    ])
    func bodiesAFillWouldRefuse(body: String, route: String, code: String) async throws {
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            let yaml = gatewayYAML(
                upstream: "\(upstream.baseURL)/objects", route: route, top: "limits: { maxItems: 5 }")
            let report = try #require(try await probe(yaml).first)
            #expect(!report.ok)
            #expect(report.status == 200)
            #expect(report.items == nil)
            #expect(report.problem?.code == code)
            #expect(report.problem?.status == 502)
            #expect(report.text.contains("problem: \(code) 502"))
        }
    }

    @Test func aCrawlReportsEveryPageAndTheLeastFreshOne() async throws {
        let paged = PagedUpstream(count: 45, cap: 20, style: .linkHeader)
        try await withTestUpstream({ request in
            var reply = paged.reply(request)
            let maxAge = paged.pageIndex(request) == 1 ? 5 : 600
            reply.headers.append(("Cache-Control", "max-age=\(maxAge)"))
            return reply
        }) { upstream in
            let yaml = gatewayYAML(upstream: "\(upstream.baseURL)/items", route: paged.routeKeys())
            let report = try #require(try await probe(yaml).first)
            #expect(report.ok)
            #expect(report.items == 45)
            #expect(report.pages.map(\.status) == [200, 200, 200])
            #expect(report.bytes == report.pages.compactMap(\.bytes).reduce(0, +))
            #expect(report.freshness?.seconds == 5)
            #expect(report.freshness?.why == "page 2 of 3 is the least fresh; Cache-Control: max-age=5")
            #expect(report.text.contains("45 items"))
            #expect(report.text.contains("in 3 pages"))
        }
    }

    @Test func placeholdersNeedValues() async throws {
        try await withTestUpstream({ request in .json(objectsBody(request.path == "/list/7" ? 7 : 1).body) }) {
            upstream in
            let yaml = listsYAML(upstream: upstream.baseURL, maxBytes: "1MiB")
            let without = try #require(try await probe(yaml).first)
            #expect(!without.ok)
            #expect(without.problem?.code == "missing-parameter")
            #expect(without.problem?.detail.contains("--param id=VALUE") == true)
            #expect(upstream.requests.isEmpty)
            let with = try #require(try await probe(yaml, parameters: ["id": "7"]).first)
            #expect(with.ok)
            #expect(with.items == 7)
        }
    }

    @Test func onlyTheNamedRouteAndUnknownNamesAreErrors() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(2).body) }) { upstream in
            let yaml =
                gatewayYAML(upstream: "\(upstream.baseURL)/objects") + """

                      - name: other
                        path: /other
                        upstream: \(upstream.baseURL)/other
                    """
            let reports = try await probe(yaml, routes: ["other"])
            #expect(reports.map(\.route) == ["other"])
            #expect(upstream.requests.map(\.path) == ["/other"])
            await #expect(throws: Probe.UnknownRoute.self) { try await probe(yaml, routes: ["nope"]) }
        }
    }

    @Test func theExecutablePrintsJSONAndExitsByOutcome() async throws {
        try await withTestUpstream({ request in
            request.path == "/objects" ? .json(objectsBody(4).body) : .json("nope", status: 500)
        }) { upstream in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("folio.yaml")
            try
                (gatewayYAML(upstream: "\(upstream.baseURL)/objects") + """

                      - name: down
                        path: /down
                        upstream: \(upstream.baseURL)/down
                    """).write(to: file, atomically: true, encoding: .utf8)

            func run(_ arguments: [String]) async throws -> (status: Int32, stdout: Data) {
                let process = Process()
                process.executableURL = try FolioProcess.executable()
                process.arguments = ["probe", "--config", file.path] + arguments
                process.environment = FolioProcess.ownEnvironment([:])
                process.standardError = Pipe()
                return try await ChildProcess.output(of: process)
            }
            let good = try await run(["--json", "objects"])
            #expect(good.status == 0)
            let reports = try JSONSerialization.jsonObject(with: good.stdout) as? [[String: Any]]
            #expect(reports?.first?["items"] as? Int == 4)
            #expect(reports?.first?["ok"] as? Bool == true)
            let all = try await run([])
            #expect(all.status == 1)
            let text = String(decoding: all.stdout, as: UTF8.self)
            #expect(text.contains("objects: ok"))
            #expect(text.contains("down: FAILS"))
        }
    }
}
