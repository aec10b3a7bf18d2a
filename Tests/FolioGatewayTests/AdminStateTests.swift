import Crypto
import FolioTestSupport
import Foundation
import Testing

@testable import FolioGateway

/// The admin page and its `GET /state` (docs/API.md, "Admin state"; docs/OPERATIONS.md, "Admin
/// page") through a real gateway, after real fills. The page itself in a browser:
/// `AdminPageBrowserTests`.
@Suite("Admin state and page")
struct AdminStateTests {
    static let token = "s3cret-admin-token"

    static func yaml(_ upstream: TestUpstream) -> String {
        """
        server:
          listen: 127.0.0.1:0
          admin: 127.0.0.1:0
          adminToken: \(token)
        cache:
          snapshotRetention: 5m
        routes:
          - name: objects
            path: /objects
            upstream: \(upstream.baseURL)/objects
          - name: broken
            path: /broken
            upstream: \(upstream.baseURL)/broken
          - name: idle
            path: /idle
            upstream: \(upstream.baseURL)/idle
        """
    }

    static func route(_ state: [String: Any], _ name: String) throws -> [String: Any] {
        let routes = try #require(state["routes"] as? [[String: Any]])
        return try #require(routes.first { $0["name"] as? String == name })
    }

    @Test func stateShowsEachRoutesSnapshotsCountsAndLastFill() async throws {
        try await withTestUpstream({ request in
            request.path == "/broken" ? .text("down for maintenance", status: 503) : .json(objectsBody(7).body)
        }) { upstream in
            _ = try await withFolio(Self.yaml(upstream)) { folio in
                let first = try await folio.get("\(folio.client)/objects?pageSize=2")
                let token = try #require(try first.json.paging["snapshot"] as? String)
                #expect(try await folio.get("\(folio.client)/objects?pageSize=3").status == 200)
                #expect(try await folio.get("\(folio.client)/broken").status == 503)

                let answer = try await folio.get("\(folio.admin)/state")
                #expect(answer.status == 200)
                #expect(answer.headers.first(name: "Content-Type") == "application/json")
                let state = try answer.json
                #expect(state["purgeNeedsToken"] as? Bool == true)
                #expect(state["ready"] as? Bool == true)
                let store = try #require(state["store"] as? [String: Any])
                #expect(store["kind"] as? String == "memory")
                #expect(store["snapshots"] as? Int == 1)
                #expect((store["nodes"] as? [Any])?.isEmpty == true)

                let objects = try Self.route(state, "objects")
                #expect(objects["path"] as? String == "/objects")
                #expect(objects["dialect"] as? String == "folio")
                #expect(objects["upstreamHost"] as? String == "127.0.0.1:\(upstream.port)")
                #expect(objects["hits"] as? Int == 1)
                #expect(objects["misses"] as? Int == 1)
                #expect(objects["stale"] as? Int == 0)
                #expect(objects["errors"] as? Int == 0)
                #expect(objects["fillsInFlight"] as? Int == 0)
                #expect(objects["watchers"] as? Int == 0)
                let fill = try #require(objects["lastFill"] as? [String: Any])
                #expect(fill["outcome"] as? String == "stored")
                #expect(fill["items"] as? Int == 7)
                #expect(fill["bytes"] as? Int == objectsBody(7).body.utf8.count)
                #expect((fill["durationMs"] as? Double ?? -1) >= 0)
                #expect((fill["at"] as? String)?.hasSuffix("Z") == true)
                let snapshots = try #require(objects["snapshots"] as? [[String: Any]])
                #expect(snapshots.count == 1)
                let snapshot = try #require(snapshots.first)
                #expect(snapshot["token"] as? String == token)
                #expect(snapshot["items"] as? Int == 7)
                #expect((snapshot["bytes"] as? Int ?? 0) >= objectsBody(7).body.utf8.count)
                #expect(snapshot["fresh"] as? Bool == true)
                #expect(snapshot["state"] as? String == "current")
                #expect((snapshot["keyHash"] as? String)?.count == 16)

                let broken = try Self.route(state, "broken")
                #expect(broken["errors"] as? Int == 1)
                #expect(broken["misses"] as? Int == 1)
                #expect((broken["lastFill"] as? [String: Any])?["outcome"] as? String == "upstream-503")
                #expect((broken["snapshots"] as? [Any])?.isEmpty == true)
                let idle = try Self.route(state, "idle")
                #expect(idle["lastFill"] == nil)

                // A purge demotes the list to retained: it still answers its pinned links.
                let purged = try await folio.post(
                    "\(folio.admin)/purge?route=objects", headers: [("Authorization", "Bearer \(Self.token)")])
                #expect(purged.status == 204)
                let after = try Self.route(try await folio.get("\(folio.admin)/state").json, "objects")
                let retained = try #require((after["snapshots"] as? [[String: Any]])?.first)
                #expect(retained["state"] as? String == "retained")
                #expect(retained["token"] as? String == token)
            }
        }
    }

    @Test func stateNeverShowsCredentials() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(3).body) }) { upstream in
            _ = try await withFolio(Self.yaml(upstream)) { folio in
                let secretQuery = "apiKey=leaked-query-value"
                #expect(
                    try await folio.get(
                        "\(folio.client)/objects?\(secretQuery)", headers: [("X-Api-Key", "leaked-header-value")]
                    ).status == 200)
                let text = try await folio.get("\(folio.admin)/state").text
                for secret in [Self.token, "leaked-query-value", "leaked-header-value"] {
                    #expect(!text.contains(secret))
                }
            }
        }
    }

    @Test func thePageIsSelfContainedAndItsPolicyAllowsOnlyItsOwnScriptAndStyle() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(3).body) }) { upstream in
            _ = try await withFolio(Self.yaml(upstream)) { folio in
                for path in ["/", "/ui"] {
                    let page = try await folio.get(folio.admin + path)
                    #expect(page.status == 200)
                    #expect(page.headers.first(name: "Content-Type") == "text/html; charset=utf-8")
                    let policy = try #require(page.headers.first(name: "Content-Security-Policy"))
                    #expect(policy.contains("default-src 'none'"))
                    #expect(policy.contains("connect-src 'self'"))
                    #expect(!policy.contains("unsafe-inline") && !policy.contains("http"))
                    // Every inline script and style is allowed by its hash, and nothing is loaded
                    // from elsewhere.
                    let html = page.text
                    for (tag, directive) in [("script", "script-src"), ("style", "style-src")] {
                        let parts = html.components(separatedBy: "<\(tag)>")
                        #expect(parts.count == 2)
                        let inline = try #require(parts.last?.components(separatedBy: "</\(tag)>").first)
                        let digest = Data(SHA256.hash(data: Array(inline.utf8))).base64EncodedString()
                        #expect(policy.contains("\(directive) 'sha256-\(digest)'"))
                    }
                    #expect(!html.contains("src=\"http") && !html.contains("href=\"http"))
                }
                #expect(try await folio.post("\(folio.admin)/state").status == 405)
            }
        }
    }

    /// Open watch streams show as the route's `watchers`, and leave it when they close.
    @Test func openWatchStreamsAreTheRoutesWatchers() async throws {
        let list = GatewayChangesTests.ChangingList((0..<3).map { GatewayWatchTests.item($0) })
        try await withTestUpstream({ _ in .json(list.body) }) { upstream in
            _ = try await withFolio(GatewayWatchTests.yaml(upstream, ttl: "60s")) { folio in
                let token = try await GatewayWatchTests.token(folio)
                func watchers() async throws -> Int? {
                    try Self.route(try await folio.get("\(folio.admin)/state").json, "objects")["watchers"] as? Int
                }
                #expect(try await watchers() == 0)
                var streams: [EventStreamClient] = []
                for _ in 0..<2 {
                    let stream = try await EventStreamClient.open(port: folio.clientPort, "/objects?since=\(token)")
                    _ = try await stream.waitForEvents(1)
                    streams.append(stream)
                }
                #expect(try await watchers() == 2)
                await streams[0].close()
                try await waitUntil("the closed stream leaves the count") { try await watchers() == 1 }
                await streams[1].close()
            }
        }
    }

    @Test func aRedisStoreShowsItsServerAndWhetherItAnswersButNotItsPassword() async throws {
        try await RedisServer.with(arguments: ["--requirepass", "redis-pa55word"]) { redis in
            try await withTestUpstream({ _ in .json(objectsBody(3).body) }) { upstream in
                // Generous timeouts: this test is about what /state shows, not about a slow Redis.
                let yaml = gatewayYAML(
                    upstream: upstream.baseURL + "/objects", admin: true,
                    top: """
                        cache:
                          store: redis
                          redis:
                            url: redis://:redis-pa55word@127.0.0.1:\(redis.port)
                            keyPrefix: "admin-test:"
                            commandTimeout: 10s
                            connectTimeout: 10s
                        """)
                _ = try await withFolio(yaml) { folio in
                    #expect(try await folio.get("\(folio.client)/objects").status == 200)
                    let answer = try await folio.get("\(folio.admin)/state")
                    #expect(!answer.text.contains("redis-pa55word"))
                    let store = try #require(try answer.json["store"] as? [String: Any])
                    #expect(store["kind"] as? String == "redis")
                    let node = try #require((store["nodes"] as? [[String: Any]])?.first)
                    #expect(node["address"] as? String == "127.0.0.1:\(redis.port)")
                    #expect(node["reachable"] as? Bool == true)
                    // The local layer's copy of the list.
                    let snapshots = try Self.route(try answer.json, "objects")["snapshots"] as? [Any]
                    #expect(snapshots?.count == 1)
                }
            }
        }
    }
}
