import FolioConfiguration
import Foundation
import HummingbirdTesting
import NIOConcurrencyHelpers
import Synchronization
import Testing

@testable import FolioGateway

/// The crawl's safety rules (docs/CONFIG.md, "Crawl behaviour worth knowing"): where a crawl may
/// go, how long and how far, and what a failing page does to the fill.
@Suite struct CrawlSafetyTests {
    // MARK: - Where next links may lead

    @Test func foreignOriginNextLinkIsRefusedBeforeAnythingIsSent() async throws {
        return try await withTestUpstream({ _ in .json("[]") }) { foreign in
            let paged = PagedUpstream(count: 100, style: .linkHeader)
            return try await withTestUpstream({ _ in .json("[]") }) { upstream in
                let targets = [
                    "\(foreign.baseURL)/items?page=3",  // same host, other port
                    "http://localhost:\(upstream.port)/items?page=3",  // other host, same port
                    "https://127.0.0.1:\(upstream.port)/items?page=3",  // other scheme
                ]
                for target in targets {
                    let before = upstream.requestCount
                    upstream.setHandler { request in
                        var reply = paged.reply(request)
                        if paged.pageIndex(request) == 1 {
                            reply.headers =
                                reply.headers.filter { $0.0 != "Link" } + [("Link", "<\(target)>; rel=\"next\"")]
                        }
                        return reply
                    }
                    try await withGateway(gatewayYAML(upstream: upstream.baseURL + "/items", route: paged.routeKeys()))
                    { client, _ in
                        let response = try await client.execute(uri: "/objects", method: .get)
                        #expect(response.status == .badGateway, "\(target)")
                        #expect(try problemCode(response) == "upstream-crawl-foreign-origin")
                        #expect(!response.text.contains("127.0.0.1"), "client answers never name upstream hosts")
                    }
                    #expect(upstream.requestCount - before == 2, "pages 1 and 2 only")
                }
                #expect(foreign.requestCount == 0)
            }
        }
    }

    @Test(arguments: ["/items?page=2", "/items", "/items?page=1#again"])
    func repeatedNextLinkIsALoop(target: String) async throws {
        let paged = PagedUpstream(count: 100, style: .nextField)
        try await withTestUpstream({ request in
            guard paged.pageIndex(request) == 2 else { return paged.reply(request) }
            return .json(#"{"items":[{"id":"x"}],"next":"\#(target)"}"#)
        }) { upstream in
            // The configured URL names page 1 explicitly, as a link back to it would.
            let base = target == "/items" ? "/items" : "/items?page=1"
            try await withGateway(gatewayYAML(upstream: upstream.baseURL + base, route: paged.routeKeys())) {
                client, _ in
                let response = try await client.execute(uri: "/objects", method: .get)
                #expect(response.status == .badGateway)
                #expect(try problemCode(response) == "upstream-crawl-loop")
            }
            #expect(upstream.requestCount == 3)
        }
    }

    @Test func unusableNextFieldFailsTheFill() async throws {
        try await withTestUpstream({ _ in .json(#"{"items":[1,2],"next":42}"#) }) { upstream in
            let paged = PagedUpstream(count: 0, style: .nextField)
            try await withGateway(gatewayYAML(upstream: upstream.baseURL + "/items", route: paged.routeKeys())) {
                client, _ in
                let response = try await client.execute(uri: "/objects", method: .get)
                #expect(response.status == .badGateway)
            }
            #expect(upstream.requestCount == 1)
        }
    }

    // MARK: - How far

    @Test func moreThanMaxPagesFails() async throws {
        let paged = PagedUpstream(count: 100, style: .linkHeader)  // 5 pages
        try await withTestUpstream({ paged.reply($0) }) { upstream in
            try await withGateway(
                gatewayYAML(upstream: upstream.baseURL + "/items", route: paged.routeKeys("maxPages: 4"))
            ) { client, _ in
                let response = try await client.execute(uri: "/objects", method: .get)
                #expect(response.status == .badGateway)
                #expect(try problemCode(response) == "upstream-crawl-too-many-pages")
            }
            #expect(upstream.requestCount == 4)
            upstream.setHandler { paged.reply($0) }
            try await withGateway(
                gatewayYAML(upstream: upstream.baseURL + "/items", route: paged.routeKeys("maxPages: 5"))
            ) { client, _ in
                let response = try await client.execute(uri: "/objects?pageSize=500", method: .get)
                #expect(response.status == .ok)
                expectSameItems(try rawItems(response.text), paged.elements)
            }
        }
    }

    @Test func totalNeedingMoreThanMaxPagesFailsAfterTheFirstPage() async throws {
        let paged = PagedUpstream(count: 100, style: .offset, total: true)
        try await withTestUpstream({ paged.reply($0) }) { upstream in
            try await withGateway(
                gatewayYAML(upstream: upstream.baseURL + "/items", route: paged.routeKeys("maxPages: 4"))
            ) { client, _ in
                let response = try await client.execute(uri: "/objects", method: .get)
                #expect(response.status == .badGateway)
                #expect(try problemCode(response) == "upstream-crawl-too-many-pages")
            }
            #expect(upstream.requestCount == 1)
        }
    }

    @Test(arguments: [(total: 95, pages: 5), (total: 101, pages: 6), (total: 19, pages: 1)])
    func totalThatDisagreesWithTheItemsFails(claim: (total: Int, pages: Int)) async throws {
        let paged = PagedUpstream(count: 100, style: .page(first: 1))
        try await withTestUpstream({ request in
            var reply = paged.reply(request)
            let text = String(decoding: reply.body, as: UTF8.self)
            reply.body = Array((text.dropLast() + #","total":\#(claim.total)}"#).utf8)
            reply.headers = reply.headers.filter { $0.0 != "Content-Length" }
            return reply
        }) { upstream in
            let route = "items: /data\nupstreamPaging: { style: page, totalField: /total }"
            try await withGateway(gatewayYAML(upstream: upstream.baseURL + "/items", route: route)) { client, _ in
                let response = try await client.execute(uri: "/objects", method: .get)
                #expect(response.status == .badGateway)
                #expect(try problemCode(response) == "upstream-total-mismatch")
            }
            #expect(upstream.requestCount == claim.pages)
        }
    }

    @Test func crawlTimeoutIs504() async throws {
        let paged = PagedUpstream(count: 400, style: .linkHeader)  // 20 pages, 100 ms each
        try await withTestUpstream({ request in
            var reply = paged.reply(request)
            reply.delay = .milliseconds(100)
            return reply
        }) { upstream in
            let yaml = gatewayYAML(
                upstream: upstream.baseURL + "/items", route: paged.routeKeys(), top: "limits: { crawlTimeout: 350ms }")
            try await withGateway(yaml) { client, _ in
                let response = try await client.execute(uri: "/objects", method: .get)
                #expect(response.status == .gatewayTimeout)
                #expect(try problemCode(response) == "upstream-crawl-timeout")
                #expect(response.header("Cache-Status") == "folio; fwd=miss; fwd-status=504")
            }
            #expect(upstream.headCount < paged.expectedRequests)
        }
    }

    // MARK: - Failing pages

    @Test func firstPageErrorIsPassedThrough() async throws {
        try await withTestUpstream({ _ in .text("no such list", status: 404, headers: [("X-Legacy", "1")]) }) {
            upstream in
            let paged = PagedUpstream(count: 0, style: .linkHeader)
            try await withGateway(gatewayYAML(upstream: upstream.baseURL + "/items", route: paged.routeKeys())) {
                client, _ in
                let response = try await client.execute(uri: "/objects", method: .get)
                #expect(response.status == .notFound)
                #expect(response.text == "no such list")
                #expect(response.header("X-Legacy") == "1")
            }
            #expect(upstream.requestCount == 1)
        }
    }

    /// A first page answering a 3xx that is no redirect to follow (a 304 to a request without
    /// validators, a 302 without `Location`) is not passed through like an error: 502.
    @Test(arguments: [304, 302])
    func firstPageOfAnUnexpectedStatusIsA502(status: Int) async throws {
        try await withTestUpstream({ _ in TestUpstream.Reply(status: status) }) { upstream in
            let paged = PagedUpstream(count: 0, style: .linkHeader)
            try await withGateway(gatewayYAML(upstream: upstream.baseURL + "/items", route: paged.routeKeys())) {
                client, _ in
                let response = try await client.execute(uri: "/objects", method: .get)
                _ = try checkProblem(response, status: 502, code: "upstream-unexpected-status")
                #expect(response.header("Cache-Status") == "folio; fwd=miss; fwd-status=502")
            }
        }
    }

    /// A later page failing in any way fails the whole fill with 502, however the crawl runs.
    @Test(arguments: PageFault.allCases, [PagedUpstream.Style.linkHeader, .nextField, .page(first: 1)])
    func failingMiddlePageFailsTheFill(fault: PageFault, style: PagedUpstream.Style) async throws {
        try await expectFailingPage(fault, paged: PagedUpstream(count: 100, style: style))
    }

    @Test(arguments: PageFault.allCases)
    func failingMiddlePageFailsAParallelFill(fault: PageFault) async throws {
        try await expectFailingPage(fault, paged: PagedUpstream(count: 100, style: .offset, total: true))
    }

    enum PageFault: CaseIterable, Sendable {
        case status, truncated, invalidJSON, timeout
    }

    private func expectFailingPage(_ fault: PageFault, paged: PagedUpstream) async throws {
        try await withTestUpstream({ request in
            var reply = paged.reply(request)
            guard paged.pageIndex(request) == 2 else { return reply }
            switch fault {
            case .status: return .text("boom", status: 500)
            case .truncated:
                reply.headers =
                    reply.headers.filter { $0.0 != "Content-Length" } + [("Content-Length", "\(reply.body.count)")]
                reply.body = Array(reply.body.prefix(reply.body.count / 2))
                reply.truncate = true
            case .invalidJSON: reply.body = Array("[{\"id\":1},".utf8)
            case .timeout: reply.delay = .seconds(30)
            }
            return reply
        }) { upstream in
            // Generous for the healthy pages of a loaded test machine; the slow page never answers in time.
            let yaml = gatewayYAML(
                upstream: upstream.baseURL + "/items", route: paged.routeKeys(), top: "limits: { upstreamTimeout: 5s }")
            try await withGateway(yaml) { client, _ in
                let response = try await client.execute(uri: "/objects", method: .get)
                #expect(response.status == .badGateway, "\(fault)")
                #expect(try problemCode(response) == "upstream-page-failed")
                let detail = try response.json["detail"] as? String ?? ""
                #expect(detail.hasPrefix("Page 3"), "\(detail)")
                if fault == .status { #expect(detail == "Page 3 answered 500.") }
            }
        }
    }

    // MARK: - Limits over the whole crawl

    @Test(arguments: [PagedUpstream.Style.linkHeader, .offset])
    func maxItemsCountsEveryPage(style: PagedUpstream.Style) async throws {
        let paged = PagedUpstream(count: 60, style: style, total: style.isStepping)
        try await withTestUpstream({ paged.reply($0) }) { upstream in
            for (maxItems, status) in [(59, 502), (60, 200)] {
                let yaml = gatewayYAML(
                    upstream: upstream.baseURL + "/items", route: paged.routeKeys(),
                    top: "limits: { maxItems: \(maxItems) }")
                try await withGateway(yaml) { client, _ in
                    let response = try await client.execute(uri: "/objects", method: .get)
                    #expect(response.status.code == status)
                    if status == 502 { #expect(try problemCode(response) == "upstream-limit-exceeded") }
                }
            }
        }
    }

    @Test(arguments: [PagedUpstream.Style.nextField, .page(first: 1)])
    func maxUpstreamBytesCountsEveryPage(style: PagedUpstream.Style) async throws {
        let paged = PagedUpstream(count: 100, style: style, total: style.isStepping)
        try await withTestUpstream({ paged.reply($0) }) { upstream in
            // Every page fits on its own, all of them together do not.
            let pageBytes = paged.reply(
                TestUpstream.Recorded(method: "GET", path: "/items", query: nil, headers: [], body: [])
            )
            .body.count
            let yaml = gatewayYAML(
                upstream: upstream.baseURL + "/items", route: paged.routeKeys(),
                top: "limits: { maxUpstreamBytes: \(pageBytes * 3)B }")
            try await withGateway(yaml) { client, _ in
                let response = try await client.execute(uri: "/objects", method: .get)
                #expect(response.status == .badGateway)
                #expect(try ["upstream-limit-exceeded", "upstream-body-too-large"].contains(problemCode(response)))
            }
        }
    }

    // MARK: - Cache and headers

    @Test func concurrentColdClientsCauseOneCrawl() async throws {
        let paged = PagedUpstream(count: 150, style: .linkHeader)
        return try await withTestUpstream({ request in
            var reply = paged.reply(request)
            reply.delay = .milliseconds(20)
            return reply
        }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL + "/items", route: paged.routeKeys())) {
                client, _ in
                let statuses = try await withThrowingTaskGroup(of: (Int, [String]).self) { group in
                    for _ in 0..<8 {
                        group.addTask {
                            let response = try await client.execute(uri: "/objects?pageSize=500", method: .get)
                            return (Int(response.status.code), try rawItems(response.text))
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(statuses.count == 8)
                #expect(statuses.allSatisfy { $0.0 == 200 && $0.1 == paged.elements })
            }
            #expect(upstream.requestCount == paged.expectedRequests)
        }
    }

    @Test func failedCrawlNeverReplacesAGoodSnapshot() async throws {
        let paged = PagedUpstream(count: 100, style: .linkHeader)
        let failing = Mutex(false)
        try await withTestUpstream({ request in
            if failing.withLock({ $0 }), paged.pageIndex(request) == 3 { return .text("down", status: 503) }
            return paged.reply(request)
        }) { upstream in
            let route = paged.routeKeys() + "\ncache: { ttl: 0s, staleWhileRevalidate: 0s, staleIfError: 5m }"
            try await withGateway(gatewayYAML(upstream: upstream.baseURL + "/items", route: route)) { client, _ in
                let good = try await client.execute(uri: "/objects?pageSize=500", method: .get)
                let token = try #require(good.json.paging["snapshot"] as? String)
                failing.withLock { $0 = true }
                let stale = try await client.execute(uri: "/objects?pageSize=500", method: .get)
                #expect(stale.status == .ok)
                #expect(stale.header("Cache-Status")?.hasPrefix("folio; fwd=stale; fwd-status=502; ttl=-") == true)
                #expect(try stale.json.paging["snapshot"] as? String == token)
                expectSameItems(try rawItems(stale.text), paged.elements)
            }
        }
    }

    @Test func everyPageCarriesTheVariantAndCredentialHeaders() async throws {
        let paged = PagedUpstream(count: 100, style: .offset, total: true)
        try await withTestUpstream({ paged.reply($0) }) { upstream in
            let route = paged.routeKeys() + "\nvary: [X-Tenant]\nauthorized: perCredential"
            try await withGateway(gatewayYAML(upstream: upstream.baseURL + "/items", route: route)) { client, _ in
                let response = try await client.execute(
                    uri: "/objects", method: .get,
                    headers: [.authorization: "Bearer t0k3n", .init("X-Tenant")!: "acme", .init("X-Other")!: "no"])
                #expect(response.status == .ok)
            }
            #expect(upstream.requestCount == 5)
            for request in upstream.requests {
                #expect(request.header("Authorization") == "Bearer t0k3n")
                #expect(request.header("X-Tenant") == "acme")
                #expect(request.header("X-Other") == nil)
                #expect(request.header("Accept") == "application/json")
            }
        }
    }

    /// With `concurrency: 16` the pool must open 16 connections to one host (AsyncHTTPClient's
    /// default is 8): the upstream holds every page until 16 are waiting at once.
    @Test func connectionPoolIsSizedForConcurrency() async throws {
        let paged = PagedUpstream(count: 17 * 20, style: .page(first: 1), total: true)
        let waiting = NIOLockedValueBox((now: 0, most: 0))
        try await withTestUpstream({ request in
            guard paged.pageIndex(request) > 0 else { return paged.reply(request) }
            waiting.withLockedValue {
                $0.now += 1
                $0.most = max($0.most, $0.now)
            }
            // Released when all 16 are here; the deadline only ends a failing run.
            let deadline = ContinuousClock.now + .seconds(5)
            while waiting.withLockedValue({ $0.now }) < 16, ContinuousClock.now < deadline, !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(5))
            }
            return paged.reply(request)
        }) { upstream in
            let yaml = gatewayYAML(upstream: upstream.baseURL + "/items", route: paged.routeKeys("concurrency: 16"))
            let configuration = try ConfigurationLoader.parse(yaml: yaml, file: "test.yaml")
            #expect(UpstreamSettings(configuration).maxConnectionsPerHost >= 16)
            try await withGateway(yaml) { client, _ in
                let response = try await client.execute(uri: "/objects?pageSize=500", method: .get)
                #expect(response.status == .ok)
                expectSameItems(try rawItems(response.text), paged.elements)
            }
            #expect(waiting.withLockedValue { $0.most } == 16)
        }
    }
}
