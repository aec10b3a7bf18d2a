import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

@testable import FolioGateway

/// docs/API.md, "Errors": every error row this gateway answers, as problem+json.
@Suite struct GatewayErrorTests {
    @Test func badParametersAre400() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(10).body) }) { upstream in
            try await withGateway(
                gatewayYAML(upstream: upstream.baseURL, route: "maxPageSize: 50\noverMaxPageSize: reject")
            ) { client, _ in
                for uri in [
                    "/objects?pageSize=abc", "/objects?pageSize=-1", "/objects?pageSize=%2B5", "/objects?pageSize=0",
                    "/objects?offset=9007199254740993", "/objects?offset=1&page=1", "/objects?pageSize=5&pageSize=5",
                    "/objects?page%53ize=5&pageSize=5", "/objects?x=%zz", "/objects?x=%C3%28", "/objects?pageSize=51",
                    "/objects?sort=name", "/objects?groupBy=alphabetical&metadataOnly", "/objects?beginsWith=A",
                ] {
                    let response = try await client.execute(uri: uri, method: .get)
                    try checkProblem(response, status: 400)
                    #expect(response.header("Cache-Status") == nil, "\(uri): answered without the cache")
                }
                let rejected = try await client.execute(uri: "/objects?pageSize=51", method: .get)
                #expect(try (rejected.json["detail"] as? String)?.contains("50") == true, "the body says the max")
                let ok = try await client.execute(uri: "/objects?offset=9007199254740992", method: .get)
                #expect(ok.status == .ok)
                #expect(try ok.json.paging["next"] is NSNull)
            }
        }
    }

    @Test func clampedPageSize() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(100).body) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: "maxPageSize: 30")) { client, _ in
                let response = try await client.execute(uri: "/objects?pageSize=80", method: .get)
                #expect(try response.json.paging["pageSize"] as? Int == 30)
                #expect(try rawItems(response.text).count == 30)
                #expect(try (response.json.paging["next"] as? String)?.contains("pageSize=30") == true)
            }
        }
    }

    @Test func methodsNotServedAre405AndUnknownPaths404() async throws {
        try await withTestUpstream({ _ in .json("[]") }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL)) { client, _ in
                let trace = try await client.execute(uri: "/objects", method: .init("PROPFIND")!)
                try checkProblem(trace, status: 405)
                #expect(trace.header("Allow")?.contains("GET") == true)
                let missing = try await client.execute(uri: "/nothing", method: .get)
                try checkProblem(missing, status: 404)
                let slash = try await client.execute(uri: "/objects/", method: .get)
                #expect(slash.status == .notFound, "a trailing slash is part of the path")
            }
        }
    }

    @Test func badUpstreamBodiesAre502() async throws {
        for body in ["{\"not\":\"a list\"}", "[1,2,", "<html>oops</html>", "[\"\u{FFFF}\", tru]", ""] {
            let upstream = try await TestUpstream.start { _ in .json(body) }
            try await withGateway(gatewayYAML(upstream: upstream.baseURL)) { client, _ in
                let response = try await client.execute(uri: "/objects", method: .get)
                try checkProblem(response, status: 502)
                #expect(response.header("Cache-Status") == "folio; fwd=miss; fwd-status=502")
            }
            await upstream.stop()
        }
    }

    @Test func upstreamErrorStatusIsPassedThrough() async throws {
        try await withTestUpstream({ _ in
            .json(
                #"{"error":"nope"}"#, status: 404,
                headers: [("X-Upstream", "yes"), ("Connection", "X-Secret"), ("X-Secret", "1")])
        }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL)) { client, _ in
                let response = try await client.execute(uri: "/objects", method: .get)
                #expect(response.status == .notFound)
                #expect(response.text == #"{"error":"nope"}"#)
                #expect(response.header("X-Upstream") == "yes")
                #expect(response.header("X-Secret") == nil, "headers named by Connection are hop-by-hop")
                #expect(response.header("Cache-Status") == "folio; fwd=miss; fwd-status=404")
            }
        }
    }

    @Test func refusedUpstreamIs502AndTimeoutIs504() async throws {
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }  // held until the test ends
        try await withGateway(gatewayYAML(upstream: refusing.url)) { client, _ in
            try checkProblem(try await client.execute(uri: "/objects", method: .get), status: 502)
        }
        try await withTestUpstream({ _ in
            var reply = TestUpstream.Reply.json("[]")
            reply.delay = .seconds(3)
            return reply
        }) { slow in
            try await withGateway(gatewayYAML(upstream: slow.baseURL, top: "limits:\n  upstreamTimeout: 300ms")) {
                client, _ in
                try checkProblem(try await client.execute(uri: "/objects", method: .get), status: 504)
            }
        }
    }

    @Test func foreignRedirectIsNotFollowed() async throws {
        return try await withTestUpstream({ _ in .json(objectsBody(3).body) }) { foreign in
            try await withTestUpstream({ request in
                if request.path == "/moved" { return .json(objectsBody(4).body) }
                if request.path == "/local" {
                    return TestUpstream.Reply(status: 302, headers: [("Location", "/moved")], body: [])
                }
                return TestUpstream.Reply(status: 302, headers: [("Location", foreign.baseURL + "/objects")], body: [])
            }) { upstream in
                try await withGateway(gatewayYAML(upstream: upstream.baseURL + "/away")) { client, _ in
                    try checkProblem(try await client.execute(uri: "/objects", method: .get), status: 502)
                    #expect(foreign.requestCount == 0)
                }
                try await withGateway(gatewayYAML(upstream: upstream.baseURL + "/local")) { client, _ in
                    let response = try await client.execute(uri: "/objects", method: .get)
                    #expect(try response.json.paging["totalCount"] as? Int == 4)
                }
            }
        }
    }

    @Test func errorNeverReplacesAGoodSnapshot() async throws {
        let healthy = Synchronization.Mutex(true)
        try await withTestUpstream({ _ in
            healthy.withLock { $0 } ? .json(objectsBody(10).body) : .json("boom", status: 500)
        }) { upstream in
            let yaml = gatewayYAML(
                upstream: upstream.baseURL, route: "cache: { ttl: 0s, staleWhileRevalidate: 0s, staleIfError: 5m }")
            try await withGateway(yaml) { client, _ in
                let good = try await client.execute(uri: "/objects", method: .get)
                let token = try good.json.paging["snapshot"] as? String
                healthy.withLock { $0 = false }
                let stale = try await client.execute(uri: "/objects", method: .get)
                #expect(stale.status == .ok)
                #expect(try stale.json.paging["snapshot"] as? String == token)
                #expect(stale.header("Cache-Status")?.hasPrefix("folio; fwd=stale; fwd-status=500; ttl=-") == true)
            }
        }
    }
}
