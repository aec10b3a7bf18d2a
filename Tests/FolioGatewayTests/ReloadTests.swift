import FolioConfiguration
import FolioEngine
import Foundation
import Synchronization
import Testing

@testable import FolioGateway

/// SIGHUP's reload, called directly: validate, swap atomically, keep what did not change.
@Suite("Reload (in process)")
struct ReloadTests {
    /// `gatewayYAML` (with the admin listener) plus a second route `/more`.
    static func twoRoutes(upstream: String, moreRoute: String = "") -> String {
        gatewayYAML(upstream: upstream + "/objects", admin: true) + """

              - name: more
                path: /more
                upstream: \(upstream)/more
            \(moreRoute.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
            """
    }

    static func parse(_ yaml: String) throws -> Configuration {
        try ConfigurationLoader.parse(yaml: yaml, file: "reload.yaml")
    }

    /// Sends `first` to `/objects`; once the upstream has it, reloads `yaml` unchanged (the
    /// route is kept) and sends a GET; returns both requests.
    static func acrossAnUnchangedReload(
        _ folio: RunningFolio, _ upstream: TestUpstream, _ yaml: String,
        first: @escaping @Sendable (String) async throws -> HTTPAnswer
    ) async throws -> (first: Task<HTTPAnswer, any Error>, after: Task<HTTPAnswer, any Error>) {
        let url = "\(folio.client)/objects"
        let before = Task { try await first(url) }
        try await waitUntil("the first request reached the upstream") { upstream.requestCount == 1 }
        #expect(await folio.server.reload(configuration: try Self.parse(yaml)).keptRoutes == ["objects"])
        return (before, Task { try await folio.get(url) })
    }

    /// Runs `body` with a gateway (its route set up with `route`) whose upstream answers ten
    /// objects once the latch given to `body` opens: a fill held in flight.
    static func withHeldFill(
        route: String = "", _ body: @Sendable (RunningFolio, TestUpstream, String, Latch) async throws -> Void
    ) async throws {
        let gate = Latch()
        let (objects, _) = objectsBody(10)
        try await withGatedUpstream(gate, .json(objects)) { upstream in
            let yaml = gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true, route: route)
            _ = try await withFolio(yaml) { folio in try await body(folio, upstream, yaml, gate) }
        }
    }

    @Test func aNewRouteIsServedAfterReload() async throws {
        try await withTestUpstream({ request in .json(request.path == "/more" ? "[7,8,9]" : "[1]") }) { upstream in
            _ = try await withFolio(gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true)) { folio in
                #expect(try await folio.get("\(folio.client)/more").status == 404)
                let result = await folio.server.reload(
                    configuration: try Self.parse(Self.twoRoutes(upstream: upstream.baseURL)))
                #expect(result.applied)
                let answer = try await folio.get("\(folio.client)/more")
                #expect(answer.status == 200)
                #expect(try answer.json.paging["totalCount"] as? Int == 3)
            }
        }
    }

    @Test func aBrokenConfigIsLoggedAndTheOldOneKeepsServing() async throws {
        let log = CapturedLog()
        try await withTestUpstream({ _ in .json("[1,2]") }) { upstream in
            _ = try await withFolio(
                gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true), logger: log.logger()
            ) { folio in
                let broken = """
                    server:
                      listen: 127.0.0.1:0
                      bogus: 1
                    routes:
                      - name: objects
                        path: /objects
                        upstream: \(upstream.baseURL)/objects
                        pageSize: zero
                    """
                let before = folio.server.gateway
                let result = await folio.server.reload { () throws(ConfigurationError) in
                    try ConfigurationLoader.parse(yaml: broken, file: "broken.yaml")
                }
                #expect(!result.applied)
                #expect(result.problems.count == 2)
                #expect(folio.server.gateway === before)
                #expect(try await folio.get("\(folio.client)/objects").status == 200)
                let logged = try log.messages("config problem").compactMap { $0["problem"] as? String }
                #expect(logged == result.problems.map(\.description))
                #expect(
                    try log.objects.contains { ($0["message"] as? String)?.hasPrefix("config reload failed") == true })
            }
        }
    }

    @Test func unchangedRoutesKeepTheirSnapshotsChangedOnesRefetch() async throws {
        try await withTestUpstream({ request in .json(request.path == "/more" ? "[3,4]" : "[1,2]") }) { upstream in
            let base = upstream.baseURL
            _ = try await withFolio(Self.twoRoutes(upstream: base)) { folio in
                let objectsToken = try await folio.get("\(folio.client)/objects").json.paging["snapshot"] as? String
                _ = try await folio.get("\(folio.client)/more")
                #expect(upstream.requestCount == 2)

                // `more` gets another page size; `objects` is untouched.
                let result = await folio.server.reload(
                    configuration: try Self.parse(Self.twoRoutes(upstream: base, moreRoute: "pageSize: 1")))
                #expect(result.keptRoutes == ["objects"])

                let objects = try await folio.get("\(folio.client)/objects")
                #expect(objects.headers.first(name: "Cache-Status")?.hasPrefix("folio; hit") == true)
                #expect(try objects.json.paging["snapshot"] as? String == objectsToken)
                #expect(upstream.requestCount == 2)

                let more = try await folio.get("\(folio.client)/more")
                #expect(more.headers.first(name: "Cache-Status") == "folio; fwd=miss; stored")
                #expect(try more.json.paging["pageSize"] as? Int == 1)
                #expect(upstream.requestCount == 3)
            }
        }
    }

    /// Query plans are kept per route (`QueryPlanMemo`): a query read before a reload that
    /// changes the route's paging is read again under the new settings.
    @Test func aQueryReadBeforeAReloadIsReadAgainUnderTheNewPaging() async throws {
        let list = "[" + (0..<30).map(String.init).joined(separator: ",") + "]"
        try await withTestUpstream({ _ in .json(list) }) { upstream in
            let base = upstream.baseURL + "/objects"
            _ = try await withFolio(gatewayYAML(upstream: base, admin: true)) { folio in
                let before = try await folio.get("\(folio.client)/objects?page=1").json.paging
                #expect(before["offset"] as? Int == 25 && before["pageSize"] as? Int == 25)
                let result = await folio.server.reload(
                    configuration: try Self.parse(gatewayYAML(upstream: base, admin: true, route: "pageSize: 10")))
                #expect(result.applied)
                let after = try await folio.get("\(folio.client)/objects?page=1").json.paging
                #expect(after["offset"] as? Int == 10 && after["pageSize"] as? Int == 10)
            }
        }
    }

    @Test func aNewCacheBoundKeepsEveryRoutesSnapshots() async throws {
        try await withTestUpstream({ _ in .json("[1,2]") }) { upstream in
            let base = upstream.baseURL
            _ = try await withFolio(
                gatewayYAML(upstream: base + "/objects", admin: true, top: "cache:\n  maxBytes: 64MiB")
            ) { folio in
                _ = try await folio.get("\(folio.client)/objects")
                // The bound is global: no route's own settings changed, so none loses its list.
                let result = await folio.server.reload(
                    configuration: try Self.parse(
                        gatewayYAML(upstream: base + "/objects", admin: true, top: "cache:\n  maxBytes: 32MiB")))
                #expect(result.keptRoutes == ["objects"])
                let again = try await folio.get("\(folio.client)/objects")
                #expect(again.headers.first(name: "Cache-Status")?.hasPrefix("folio; hit") == true)
                #expect(upstream.requestCount == 1)
                #expect(try await folio.metrics().value("folio_cache_max_bytes") == Double(32 << 20))
            }
        }
    }

    @Test func pinnedLinksOfAnUnchangedRouteSurviveTheReload() async throws {
        let version = VersionBox()
        try await withTestUpstream({ _ in .json(version.body) }) { upstream in
            let yaml = gatewayYAML(
                upstream: upstream.baseURL + "/objects", admin: true,
                route: "cache: { ttl: 0s, staleWhileRevalidate: 0s }")
            _ = try await withFolio(yaml) { folio in
                let first = try await folio.get("\(folio.client)/objects?pageSize=1")
                let token = try #require(try first.json.paging["snapshot"] as? String)
                version.bump()
                _ = try await folio.get("\(folio.client)/objects?pageSize=1")  // supersedes the first snapshot
                #expect(await folio.server.reload(configuration: try Self.parse(yaml)).keptRoutes == ["objects"])
                let pinned = try await folio.get("\(folio.client)/objects?pageSize=1&snapshot=\(token)")
                #expect(pinned.status == 200)
            }
        }
    }

    @Test func requestsInFlightFinishOnTheOldConfig() async throws {
        try await Self.withHeldFill(route: "pageSize: 2") { folio, upstream, _, gate in
            let old = Task { try await folio.get("\(folio.client)/objects") }
            try await waitUntil("the request reached the upstream") { upstream.requestCount == 1 }
            let result = await folio.server.reload(
                configuration: try Self.parse(
                    gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true, route: "pageSize: 5")))
            #expect(result.applied)
            #expect(result.keptRoutes.isEmpty)
            gate.open()
            #expect(try await old.value.json.paging["pageSize"] as? Int == 2)
            #expect(try await folio.get("\(folio.client)/objects").json.paging["pageSize"] as? Int == 5)
        }
    }

    /// SIGHUP with the file unchanged while a list is being fetched: the request that comes
    /// after the reload joins that fetch, and its list is kept; nothing is fetched twice.
    @Test func aReloadThatChangesNothingKeepsTheFillInFlight() async throws {
        try await Self.withHeldFill { folio, upstream, yaml, gate in
            let url = "\(folio.client)/objects"
            let (before, after) = try await Self.acrossAnUnchangedReload(folio, upstream, yaml) {
                try await folio.get($0)
            }
            try await waitUntil("the request after the reload is in flight") {
                folio.server.current.current.inFlight.load(ordering: .relaxed) == 1
            }
            // Time to reach the fill: should it not, it is answered from the kept list
            // (a hit), and the upstream is still asked once.
            try await Task.sleep(for: .milliseconds(200))
            gate.open()
            #expect(try await before.value.headers.first(name: "Cache-Status") == "folio; fwd=miss; stored")
            let joined = try await after.value
            #expect(joined.status == 200)
            let status = joined.headers.first(name: "Cache-Status") ?? ""
            #expect(status == "folio; fwd=miss; collapsed" || status.hasPrefix("folio; hit"), "\(status)")
            let third = try await folio.get(url)
            #expect(third.headers.first(name: "Cache-Status")?.hasPrefix("folio; hit") == true)
            #expect(upstream.requestCount == 1)
        }
    }

    /// A reload that changes a route while its list is being fetched: the fetch stores
    /// nothing, but the requests that joined it are answered from it, on the old config, as
    /// its leader is; nobody fetches again until a request comes under the new config.
    @Test func waitersOfAFillTheReloadMadeObsoleteAreServedIt() async throws {
        try await Self.withHeldFill(route: "pageSize: 2") { folio, upstream, _, gate in
            let url = "\(folio.client)/objects"
            let leader = Task { try await folio.get(url) }
            try await waitUntil("the fill reached the upstream") { upstream.requestCount == 1 }
            let waiters = (0..<3).map { _ in Task { try await folio.get(url) } }
            try await waitUntil("the waiters are in flight") {
                folio.server.current.current.inFlight.load(ordering: .relaxed) == 4
            }
            let changed = gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true, route: "pageSize: 5")
            #expect(await folio.server.reload(configuration: try Self.parse(changed)).keptRoutes.isEmpty)
            gate.open()
            let led = try await leader.value
            #expect(led.headers.first(name: "Cache-Status") == "folio; fwd=uri-miss")
            #expect(try led.json.paging["pageSize"] as? Int == 2)
            for waiter in waiters {
                let answer = try await waiter.value
                #expect(answer.headers.first(name: "Cache-Status") == "folio; fwd=miss; collapsed")
                #expect(try answer.json.paging["pageSize"] as? Int == 2)
            }
            #expect(upstream.requestCount == 1, "the waiters fetched again")
            let next = try await folio.get(url)
            #expect(next.headers.first(name: "Cache-Status") == "folio; fwd=miss; stored")
            #expect(try next.json.paging["pageSize"] as? Int == 5)
            #expect(upstream.requestCount == 2)
        }
    }

    /// Read after write across a reload: a write still finishing on the replaced gateway drops
    /// the route for the gateway in force too, so a fill it began before the write's 2xx does
    /// not keep the list from before the write.
    @Test func aWriteFinishingOnTheReplacedGatewayStopsTheNewGatewaysEarlierFill() async throws {
        let version = Mutex("v1")
        let writing = Latch()
        let reading = Latch()
        let reads = Mutex(0)
        try await withTestUpstream({ request in
            if request.method == "POST" {
                await writing.wait()
                version.withLock { $0 = "v2" }
                return .json("{}")
            }
            let tag = version.withLock { $0 }
            if reads.withLock({ count in
                count += 1
                return count == 1
            }) {
                await reading.wait()
            }
            return .json(#"[""# + tag + #""]"#)
        }) { upstream in
            let yaml = gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true)
            _ = try await withFolio(yaml) { folio in
                let url = "\(folio.client)/objects"
                let (write, read) = try await Self.acrossAnUnchangedReload(folio, upstream, yaml) {
                    try await folio.post($0)
                }
                try await waitUntil("the read's fill reached the upstream") { upstream.requestCount == 2 }
                writing.open()
                #expect(try await write.value.status == 200)
                reading.open()
                #expect(try await read.value.text.contains("v1"))
                let after = try await folio.get(url)
                #expect(after.text.contains("v2"), "the list from before the write was kept: \(after.text)")
            }
        }
    }

    @Test func changedLimitsRebuildTheUpstreamClientOthersDoNot() async throws {
        try await withTestUpstream({ _ in .json("[1]") }) { upstream in
            let base = upstream.baseURL
            _ = try await withFolio(gatewayYAML(upstream: base + "/objects", admin: true)) { folio in
                let original = folio.server.upstream
                let same = await folio.server.reload(
                    configuration: try Self.parse(
                        gatewayYAML(upstream: base + "/objects", admin: true, route: "pageSize: 3")))
                #expect(!same.rebuiltUpstreamClient)
                #expect(folio.server.upstream === original)

                let changed = await folio.server.reload(
                    configuration: try Self.parse(
                        gatewayYAML(upstream: base + "/objects", admin: true, top: "limits:\n  upstreamTimeout: 7s")))
                #expect(changed.rebuiltUpstreamClient)
                #expect(folio.server.upstream !== original)
                #expect(folio.server.upstream.settings.responseTimeout == .seconds(7))
                #expect(try await folio.get("\(folio.client)/objects").status == 200)
                // The old client is shut down once no request uses it.
                try await waitUntil("the retired generation is swept") { !folio.server.current.hasRetired }
            }
        }
    }

    @Test func listenerChangesAreLoggedAsNeedingARestart() async throws {
        let log = CapturedLog()
        try await withTestUpstream({ _ in .json("[1]") }) { upstream in
            _ = try await withFolio(
                gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true), logger: log.logger()
            ) { folio in
                var configuration = try Self.parse(gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true))
                configuration.server.listen = ListenAddress(host: "127.0.0.1", port: 1)
                configuration.server.admin = nil
                let result = await folio.server.reload(configuration: configuration)
                #expect(result.applied)
                #expect(result.needsRestart == ["server.listen", "server.admin"])
                let keys = try log.messages("config change needs a restart").compactMap { $0["key"] as? String }
                #expect(keys == ["server.listen", "server.admin"])
                // Still answering on the listeners it has.
                #expect(try await folio.get("\(folio.client)/objects").status == 200)
                #expect(try await folio.get("\(folio.admin)/readyz").status == 200)
            }
        }
    }

    /// A setting that needs a restart keeps running as it was: switching the store to Redis by a
    /// reload changes nothing the running memory store reports, and putting the file back is
    /// no change at all.
    @Test func settingsThatNeedARestartKeepRunningAsTheyAre() async throws {
        try await withTestUpstream({ _ in .json("[1]") }) { upstream in
            let yaml = gatewayYAML(
                upstream: upstream.baseURL + "/objects", admin: true, top: "cache:\n  maxBytes: 64MiB")
            _ = try await withFolio(yaml) { folio in
                let redis = yaml.replacingOccurrences(
                    of: "  maxBytes: 64MiB",
                    with:
                        "  maxBytes: 64MiB\n  store: redis\n  redis: { url: redis://127.0.0.1:1, localMaxBytes: 8MiB }")
                let switched = await folio.server.reload(configuration: try Self.parse(redis))
                #expect(switched.applied && switched.needsRestart == ["cache.store / cache.redis"])
                #expect(try await folio.metrics().value("folio_cache_max_bytes") == Double(64 << 20))
                #expect(try await folio.get("\(folio.client)/objects").status == 200)

                let back = await folio.server.reload(configuration: try Self.parse(yaml))
                #expect(back.applied && back.needsRestart.isEmpty, "\(back.needsRestart)")
            }
        }
    }

    @Test func countersKeepCountingAcrossReloads() async throws {
        try await withTestUpstream({ _ in .json("[1]") }) { upstream in
            let yaml = gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true)
            _ = try await withFolio(yaml) { folio in
                _ = try await folio.get("\(folio.client)/objects")
                #expect(await folio.server.reload(configuration: try Self.parse(yaml)).applied)
                _ = try await folio.get("\(folio.client)/objects")
                let samples = try await folio.metrics()
                #expect(samples.value("folio_requests_total", ["route": "objects", "status_class": "2xx"]) == 2)
                #expect(samples.value("folio_snapshots") == 1)
            }
        }
    }

    @Test func aNewLogLevelApplies() async throws {
        let log = CapturedLog()
        try await withTestUpstream({ _ in .json("[1]") }) { upstream in
            _ = try await withFolio(
                gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true), logger: log.logger()
            ) { folio in
                _ = try await folio.get("\(folio.client)/objects")
                let quiet = gatewayYAML(
                    upstream: upstream.baseURL + "/objects", admin: true, top: "logging:\n  level: warning")
                #expect(await folio.server.reload(configuration: try Self.parse(quiet)).applied)
                _ = try await folio.get("\(folio.client)/objects")
            }
        }
        #expect(try log.messages("request").count == 1)
    }
}

/// An upstream list that changes when the test says so.
final class VersionBox: Sendable {
    private let version = Latch()
    func bump() { version.open() }
    var body: String { version.isOpen ? "[\"b\"]" : "[\"a\"]" }
}
