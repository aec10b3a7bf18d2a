import FolioEngine
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

@testable import FolioGateway

/// docs/API.md, "Snapshots": snapshot tokens, pinned links, 410s, two replicas.
@Suite struct GatewaySnapshotTests {
    @Test func pinnedSnapshotSurvivesUpstreamChange() async throws {
        let version = Mutex("v1")
        try await withTestUpstream({ _ in .json(objectsBody(50, tag: version.withLock { $0 }).body) }) { upstream in
            // ttl 0: every unpinned request refills, so the second fill sees v2.
            let yaml = gatewayYAML(
                upstream: upstream.baseURL, route: "cache: { ttl: 0s, staleWhileRevalidate: 0s, staleIfError: 0s }")
            try await withGateway(yaml) { client, _ in
                let first = try await client.execute(uri: "/objects?pageSize=10", method: .get)
                let oldToken = try #require(first.json.paging["snapshot"] as? String)
                let next = try #require(first.json.paging["next"] as? String)

                version.withLock { $0 = "v2" }
                let fresh = try await client.execute(uri: "/objects?pageSize=10", method: .get)
                let newToken = try #require(fresh.json.paging["snapshot"] as? String)
                #expect(newToken != oldToken)
                #expect(try rawItems(fresh.text).allSatisfy { $0.contains("\"v2\"") })

                let pinned = try await client.execute(uri: next, method: .get)
                #expect(pinned.status == .ok)
                #expect(try pinned.json.paging["snapshot"] as? String == oldToken)
                #expect(try rawItems(pinned.text).allSatisfy { $0.contains("\"v1\"") })
                #expect(pinned.header("Cache-Status")?.hasPrefix("folio; hit; ttl=-") == true)
            }
        }
    }

    @Test func unknownSnapshotIs410WithFirstLink() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(5).body) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL)) { client, _ in
                let warm = try await client.execute(uri: "/objects", method: .get)
                let token = try #require(warm.json.paging["snapshot"] as? String)
                let gone = try await client.execute(uri: "/objects?pageSize=2&snapshot=AAAAAAAAAAAAAAAA", method: .get)
                #expect(gone.status == .gone)
                #expect(gone.header("Content-Type") == "application/problem+json")
                let problem = try gone.json
                #expect(problem["status"] as? Int == 410)
                #expect((problem["type"] as? String)?.isEmpty == false)
                #expect(gone.header("Link") == "</objects?pageSize=2&offset=0&snapshot=\(token)>; rel=\"first\"")
                #expect(
                    upstream.requestCount == 1,
                    "a fresh list that lacks the token answers 410 without an upstream request")
            }
        }
    }

    /// A section index or `metadataOnly` request with a gone token: the first link is the
    /// current list's answer of the same kind, and following it works (a page link with
    /// `groupBy` would be a 400).
    @Test(arguments: ["groupBy=alphabetical&metadataOnly", "groupBy=tag&metadataOnly", "metadataOnly"])
    func aGoneSectionIndexLinksToTheCurrentOne(_ query: String) async throws {
        try await withTestUpstream({ _ in .json(objectsBody(5).body) }) { upstream in
            let yaml = gatewayYAML(upstream: upstream.baseURL, route: "sectionKey: name\ngroupable: [tag]")
            try await withGateway(yaml) { client, _ in
                let warm = try await client.execute(uri: "/objects", method: .get)
                let token = try #require(warm.json.paging["snapshot"] as? String)
                let gone = try await client.execute(uri: "/objects?\(query)&snapshot=AAAAAAAAAAAAAAAA", method: .get)
                #expect(gone.status == .gone)
                let first = "/objects?\(query)&pageSize=25&offset=0&snapshot=\(token)"
                #expect(gone.header("Link") == "<\(first)>; rel=\"first\"")
                let followed = try await client.execute(uri: first, method: .get)
                #expect(followed.status == .ok, "\(followed.text)")
            }
        }
    }

    @Test func tokensMatchSpecDefinition() async throws {
        let (body, elements) = objectsBody(12)
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL)) { client, _ in
                let page = try await client.execute(uri: "/objects", method: .get)
                let token = try page.json.paging["snapshot"] as? String
                #expect(token == SnapshotToken.compute(sort: [], elements: elements.map { Array($0.utf8) }))
            }
        }
    }

    @Test func twoReplicasAcceptEachOthersTokens() async throws {
        let (body, elements) = objectsBody(100)
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            let yaml = gatewayYAML(upstream: upstream.baseURL)
            try await withGateway(yaml) { clientA, _ in
                try await withGateway(yaml) { clientB, _ in
                    let first = try await clientA.execute(uri: "/objects?pageSize=30", method: .get)
                    var next = try first.json.paging["next"] as? String
                    var seen = try rawItems(first.text)
                    var useB = true
                    while let uri = next {
                        let response = try await (useB ? clientB : clientA).execute(uri: uri, method: .get)
                        #expect(response.status == .ok)
                        seen += try rawItems(response.text)
                        next = try response.json.paging["next"] as? String
                        useB.toggle()
                    }
                    #expect(seen == elements)
                }
            }
        }
    }

    @Test func unsafeMethodIsForwardedAndDropsTheSnapshot() async throws {
        let version = Mutex("v1")
        try await withTestUpstream({ request in
            if request.method == "POST" {
                version.withLock { $0 = "v2" }
                return .json(#"{"created":true}"#, status: 201)
            }
            return .json(objectsBody(20, tag: version.withLock { $0 }).body)
        }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL + "/api")) { client, _ in
                let before = try await client.execute(uri: "/objects?pageSize=5", method: .get)
                let oldToken = try #require(before.json.paging["snapshot"] as? String)
                let posted = try await client.execute(
                    uri: "/objects?x=1&pageSize=3", method: .post, headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: #"{"name":"new"}"#))
                #expect(posted.status == .created)
                #expect(posted.text == #"{"created":true}"#)
                #expect(posted.header("Cache-Status") == "folio; fwd=request")
                let recorded = try #require(upstream.requests.first { $0.method == "POST" })
                #expect(recorded.path == "/api")
                #expect(recorded.query == "x=1&pageSize=3")
                #expect(recorded.body == Array(#"{"name":"new"}"#.utf8))
                let after = try await client.execute(uri: "/objects?pageSize=5", method: .get)
                #expect(try rawItems(after.text).allSatisfy { $0.contains("\"v2\"") })
                let pinned = try await client.execute(uri: "/objects?pageSize=5&snapshot=\(oldToken)", method: .get)
                #expect(pinned.status == .ok)
                #expect(try rawItems(pinned.text).allSatisfy { $0.contains("\"v1\"") })
            }
        }
    }

    @Test func credentialsBypassTheCache() async throws {
        try await withTestUpstream({ request in
            let user = request.header("Authorization") ?? "anonymous"
            return .json(#"[{"owner":"\#(user)"}]"#)
        }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL)) { client, _ in
                let alice = try await client.execute(uri: "/objects", method: .get, headers: [.authorization: "alice"])
                #expect(try rawItems(alice.text) == [#"{"owner":"alice"}"#])
                #expect(alice.header("Cache-Status") == "folio; fwd=bypass")
                let bob = try await client.execute(uri: "/objects", method: .get, headers: [.authorization: "bob"])
                #expect(try rawItems(bob.text) == [#"{"owner":"bob"}"#])
                let anonymous = try await client.execute(uri: "/objects", method: .get)
                #expect(try rawItems(anonymous.text) == [#"{"owner":"anonymous"}"#])
                #expect(upstream.requestCount == 3)
            }
        }
    }
}
