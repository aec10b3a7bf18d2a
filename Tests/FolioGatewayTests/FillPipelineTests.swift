import FolioConfiguration
import FolioEngine
import Logging
import NIOHTTP1
import Synchronization
import Testing

@testable import FolioGateway

/// The fill pipeline on its own: an `Upstream` answering from memory, an injected clock, no
/// sockets, no cache.
@Suite("FillPipeline turns upstream answers into snapshots")
struct FillPipelineTests {
    static let url = "http://upstream.test/objects"
    let clock = TestClock()

    /// The pipeline and the one route of `routeKeys` (YAML lines of the route mapping).
    func pipeline(_ upstream: MemoryUpstream, routeKeys: String = "", top: String = "") throws -> (
        FillPipeline, CompiledRoute
    ) {
        let configuration = try ConfigurationLoader.parse(
            yaml: gatewayYAML(upstream: Self.url, route: routeKeys, top: top), file: "test.yaml")
        let route = CompiledRoute(
            configuration.routes[0], limits: configuration.limits, metrics: GatewayMetrics().route("objects"))
        var logger = Logger(label: "folio.test")
        logger.logLevel = .critical
        let pipeline = FillPipeline(upstream: upstream, limits: configuration.limits, logger: logger, now: clock.now)
        return (pipeline, route)
    }

    func plan(_ url: String = Self.url) -> FillPlan {
        FillPlan(key: CacheKey(route: "objects", upstreamURL: url, varyValues: [], partition: nil), url: url) {
            ["Accept": "application/json"]
        }
    }

    /// The token and elements one indexer gives for `body` in one piece.
    func reference(_ body: String, items: JSONPointer = .root) throws -> (list: ItemList, token: String) {
        var indexer = ListIndexer(items: items, limits: IndexLimits(), sort: [])
        try indexer.append(Array(body.utf8))
        _ = try indexer.endBody()
        return try indexer.finish()
    }

    @Test func aChunkedListBecomesAStoredSnapshotAsFreshAsItsAnswerSays() async throws {
        let body = #"[{"id":1},{"id":2,"name":"zwei"},{"id":3}]"#
        let chunks = [String(body.prefix(5)), String(body.dropFirst(5).prefix(17)), String(body.dropFirst(22))]
        let upstream = MemoryUpstream([Self.url: .init(headers: ["Cache-Control": "max-age=60"], chunks: chunks)])
        let (pipeline, route) = try pipeline(upstream)

        guard case .stored(let snapshot) = try await pipeline.fill(plan(), route: route, previous: nil) else {
            Issue.record("expected a stored snapshot")
            return
        }
        let expected = try reference(body)
        #expect(snapshot.list.count == 3)
        #expect((0..<3).map { snapshot.list.element($0) } == (0..<3).map { expected.list.element($0) })
        #expect(snapshot.token == expected.token)
        #expect(snapshot.freshUntil - snapshot.storedAt == .seconds(60))
        #expect(snapshot.storedAt == clock.now())
        #expect(upstream.requests.map(\.url) == [Self.url])
    }

    @Test func aNotModifiedAnswerRenewsThePreviousSnapshotWithItsOwnRules() async throws {
        let upstream = MemoryUpstream([
            Self.url: .init(headers: ["Cache-Control": "no-cache", "ETag": #""v1""#], chunks: ["[1,2]"])
        ])
        let (pipeline, route) = try pipeline(upstream)
        guard case .stored(let first) = try await pipeline.fill(plan(), route: route, previous: nil) else {
            Issue.record("expected a stored snapshot")
            return
        }
        clock.advance(.seconds(30))
        upstream.answer(Self.url, with: .init(status: 304, headers: ["ETag": #""v1""#], chunks: []))

        guard
            case .revalidated(let renewed, renews: true) = try await pipeline.fill(
                plan(), route: route, previous: first)
        else {
            Issue.record("expected the previous snapshot revalidated")
            return
        }
        #expect(upstream.requests.last?.headers["If-None-Match"] == [#""v1""#])
        #expect(upstream.requests.first?.headers["If-None-Match"] == [])
        #expect(renewed.token == first.token)
        #expect(renewed.storedAt == clock.now())
        // The 304 has no Cache-Control: the stored `no-cache` still holds.
        #expect(renewed.freshUntil == renewed.storedAt)
        #expect(renewed.mustRevalidate)
    }

    @Test func theSameListAgainKeepsThePreviousSnapshotsMemory() async throws {
        let upstream = MemoryUpstream([Self.url: .init(chunks: ["[1,", "2]"])])
        let (pipeline, route) = try pipeline(upstream)
        guard case .stored(let first) = try await pipeline.fill(plan(), route: route, previous: nil) else {
            Issue.record("expected a stored snapshot")
            return
        }
        clock.advance(.seconds(5))
        upstream.answer(Self.url, with: .init(chunks: ["[1,2]"]))
        guard case .stored(let second) = try await pipeline.fill(plan(), route: route, previous: first) else {
            Issue.record("expected a stored snapshot")
            return
        }
        #expect(second.token == first.token)
        #expect(second.indexes === first.indexes)
        #expect(second.storedAt == first.storedAt + .seconds(5))
    }

    @Test func anErrorAnswerIsPassedBackCappedWithoutHopByHopHeaders() async throws {
        let body = String(repeating: "e", count: 3000)
        let upstream = MemoryUpstream([
            Self.url: .init(status: 503, headers: ["Retry-After": "7", "Connection": "close"], chunks: [body])
        ])
        let (pipeline, route) = try pipeline(upstream, top: "limits:\n  maxUpstreamBytes: 1024")

        guard case .upstream(let answer) = try await pipeline.fill(plan(), route: route, previous: nil) else {
            Issue.record("expected the upstream's answer")
            return
        }
        #expect(answer.status == 503)
        #expect(answer.body.count == 1024)
        #expect(answer.headers.contains { $0.name.lowercased() == "retry-after" && $0.value == "7" })
        #expect(!answer.headers.contains { $0.name.lowercased() == "connection" })
    }

    @Test func aNoStoreAnswerIsUncacheable() async throws {
        let upstream = MemoryUpstream([Self.url: .init(headers: ["Cache-Control": "no-store"], chunks: ["[1]"])])
        let (pipeline, route) = try pipeline(upstream)
        guard case .uncacheable(let snapshot) = try await pipeline.fill(plan(), route: route, previous: nil) else {
            Issue.record("expected an uncacheable snapshot")
            return
        }
        #expect(snapshot.list.count == 1)
    }

    @Test func aBodyThatIsNotAListFailsTheFill() async throws {
        let upstream = MemoryUpstream([Self.url: .init(chunks: [#"{"data":"#, "[1,2"])])
        let (pipeline, route) = try pipeline(upstream, routeKeys: "items: /data")
        let error = await #expect(throws: FolioError.self) {
            _ = try await pipeline.fill(plan(), route: route, previous: nil)
        }
        #expect(error?.status == 502)
    }

    @Test func aCrawlJoinsEveryPageInOrderAndIsAsFreshAsItsLeastFreshPage() async throws {
        let page = { (n: Int) in "\(Self.url)?page=\(n)&per_page=2" }
        let upstream = MemoryUpstream([
            page(1): .init(headers: ["Cache-Control": "max-age=300"], chunks: [#"{"data":[1,2],"total":5}"#]),
            page(2): .init(headers: ["Cache-Control": "max-age=40"], chunks: [#"{"data":[3,"#, #"4],"total":5}"#]),
            page(3): .init(headers: ["Cache-Control": "max-age=90"], chunks: [#"{"data":[5],"total":5}"#]),
        ])
        let (pipeline, route) = try pipeline(
            upstream, routeKeys: "items: /data\nupstreamPaging: { style: page, size: 2, totalField: /total }")

        guard case .stored(let snapshot) = try await pipeline.fill(plan(), route: route, previous: nil) else {
            Issue.record("expected a stored snapshot, asked \(upstream.requests.map(\.url))")
            return
        }
        #expect(
            (0..<snapshot.list.count).map { String(decoding: snapshot.list.element($0), as: UTF8.self) }
                == ["1", "2", "3", "4", "5"])
        #expect(snapshot.freshUntil - snapshot.storedAt == .seconds(40))
        #expect(Set(upstream.requests.map(\.url)) == [page(1), page(2), page(3)])
        #expect(snapshot.token == (try reference("[1,2,3,4,5]").token))
    }

    @Test func aCrawlRefusesANextLinkToAnotherOrigin() async throws {
        let upstream = MemoryUpstream([
            Self.url: .init(chunks: [#"{"items":[1],"next":"http://elsewhere.test/objects?page=2"}"#])
        ])
        let (pipeline, route) = try pipeline(
            upstream, routeKeys: "items: /items\nupstreamPaging: { style: nextField, nextField: /next }")
        let error = await #expect(throws: FolioError.self) {
            _ = try await pipeline.fill(plan(), route: route, previous: nil)
        }
        #expect(error == FolioError.crawlForeignOrigin(page: 1))
        #expect(upstream.requests.count == 1)
    }

    @Test func aCrawlThatFindsALaterPageMissingFailsWithoutAPartialList() async throws {
        let upstream = MemoryUpstream([
            Self.url: .init(chunks: [#"{"items":[1],"next":"/objects?page=2"}"#])
        ])
        let (pipeline, route) = try pipeline(
            upstream, routeKeys: "items: /items\nupstreamPaging: { style: nextField, nextField: /next }")
        let error = await #expect(throws: FolioError.self) {
            _ = try await pipeline.fill(plan(), route: route, previous: nil)
        }
        #expect(error?.status == 502)
        #expect(error?.detail.contains("Page 2 answered 404") == true)
    }
}

/// Every fill, stored or failed, tells the process that its download buffers went back to
/// malloc (`MemoryReturner` trims them a second later).
@Suite("FillPipeline reports every fill's end")
struct FillPipelineEndTests {
    @Test func storedAndFailedFillsBothReportTheirEnd() async throws {
        let url = FillPipelineTests.url
        let upstream = MemoryUpstream([
            url: .init(chunks: ["[1,", "2]"]), url + "?bad": .init(chunks: ["[1,", "}"]),
        ])
        let configuration = try ConfigurationLoader.parse(yaml: gatewayYAML(upstream: url), file: "test.yaml")
        let route = CompiledRoute(
            configuration.routes[0], limits: configuration.limits, metrics: GatewayMetrics().route("objects"))
        let ended = Mutex(0)
        let pipeline = FillPipeline(
            upstream: upstream, limits: configuration.limits, logger: Logger(label: "folio.test"),
            fillEnded: { ended.withLock { $0 += 1 } })
        let tests = FillPipelineTests()
        _ = try await pipeline.fill(tests.plan(), route: route, previous: nil)
        #expect(ended.withLock { $0 } == 1)
        await #expect(throws: FolioError.self) {
            _ = try await pipeline.fill(tests.plan(url + "?bad"), route: route, previous: nil)
        }
        #expect(ended.withLock { $0 } == 2)
    }
}
