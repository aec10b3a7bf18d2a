import FolioConfiguration
import Foundation
import Testing

@testable import FolioGateway

@Suite("Admin listener: /livez /readyz /metrics /purge")
struct AdminEndpointsTests {
    @Test func livezAndReadyzAnswerWhileServing() async throws {
        try await withTestUpstream({ _ in .json("[]") }) { upstream in
            _ = try await withFolio(gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true)) {
                folio async throws in
                #expect(try await folio.get("\(folio.admin)/livez").status == 200)
                #expect(try await folio.get("\(folio.admin)/readyz").status == 200)
                // Another method on a known path is 405 with Allow, not 404.
                let post = try await folio.post("\(folio.admin)/livez")
                #expect(post.status == 405 && post.headers["Allow"].first == "GET, HEAD")
                let get = try await folio.get("\(folio.admin)/purge?route=objects")
                #expect(get.status == 405 && get.headers["Allow"].first == "POST")
                #expect(try await folio.get("\(folio.admin)/elsewhere").status == 404)
            }
        }
    }

    /// The admin listener keeps HTTP's framing rules as the client listener does: an HTTP/1.1
    /// request without `Host` (RFC 9112 3.2), or with two, is a 400 problem; an HTTP/1.0 one is
    /// answered and closed, as it asked.
    @Test(arguments: [
        ("GET /livez HTTP/1.1\r\n\r\n", "HTTP/1.1 400", "bad-framing"),
        ("GET /livez HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", "HTTP/1.1 400", "bad-framing"),
        ("POST /purge?route=objects HTTP/1.1\r\nContent-Length: 0\r\n\r\n", "HTTP/1.1 400", "bad-framing"),
        ("GET /livez HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 200", "ok"),
        ("GET /livez HTTP/1.0\r\n\r\n", "HTTP/1.1 200", "ok"),
    ])
    func framingIsCheckedOnTheAdminListenerToo(_ request: String, _ status: String, _ text: String) async throws {
        try await withTestUpstream({ _ in .json("[]") }) { upstream in
            _ = try await withFolio(gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true)) { folio in
                let connection = try await RawConnection.open(port: folio.adminPort)
                try await connection.send(request)
                #expect(await connection.waitFor(text), "\(connection.received)")
                #expect(connection.received.hasPrefix(status), "\(connection.received)")
                if request.hasSuffix("HTTP/1.0\r\n\r\n") {
                    #expect(await connection.waitForClose(limit: .seconds(5)), "an HTTP/1.0 answer closes")
                }
                await connection.close()
            }
        }
    }

    @Test func livezDoesNotDependOnTheUpstream() async throws {
        // An upstream that refuses connections: the process is still alive.
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }  // held until the test ends
        _ = try await withFolio(gatewayYAML(upstream: refusing.url + "/objects", admin: true)) { folio async throws in
            #expect(try await folio.get("\(folio.client)/objects").status == 502)
            #expect(try await folio.get("\(folio.admin)/livez").status == 200)
            #expect(try await folio.get("\(folio.admin)/readyz").status == 200)
        }
    }

    @Test func readyzFailsOnceDrainingStarts() async throws {
        try await withTestUpstream({ _ in .json("[]") }) { upstream in
            _ = try await withFolio(gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true)) { folio in
                folio.server.readiness.startDraining()
                let answer = try await folio.get("\(folio.admin)/readyz")
                #expect(answer.status == 503)
                #expect(try await folio.get("\(folio.admin)/livez").status == 200)
            }
        }
    }

    @Test func readinessNeedsTheListenerAndEndsWithTheDrain() {
        let readiness = Readiness()
        #expect(!readiness.isReady)
        readiness.markListening()
        #expect(readiness.isReady)
        readiness.startDraining()
        #expect(!readiness.isReady)
    }

    @Test func metricsIsPrometheusText() async throws {
        try await withTestUpstream({ _ in .json("[]") }) { upstream in
            _ = try await withFolio(gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true)) { folio in
                let answer = try await folio.get("\(folio.admin)/metrics")
                #expect(answer.status == 200)
                #expect(answer.headers.first(name: "Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
                let samples = try PrometheusSamples(answer.text)
                #expect(samples.types["folio_requests_total"] == "counter")
                #expect(samples.types["folio_request_duration_seconds"] == "histogram")
                #expect(samples.types["folio_upstream_fetches_total"] == "counter")
                #expect(samples.types["folio_upstream_fetch_duration_seconds"] == "histogram")
                #expect(samples.types["folio_cache_lookups_total"] == "counter")
                #expect(samples.types["folio_cache_evictions_total"] == "counter")
                #expect(samples.types["folio_cache_bytes"] == "gauge")
                #expect(samples.types["folio_snapshots"] == "gauge")
                #expect(samples.types["folio_coalesced_waiters_total"] == "counter")
                #expect(samples.types["folio_fills_in_flight"] == "gauge")
            }
        }
    }

    @Test func purgeFromLoopbackDropsTheRouteSnapshot() async throws {
        try await withTestUpstream({ _ in .json("[1,2,3]") }) { upstream in
            _ = try await withFolio(gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true)) { folio in
                _ = try await folio.get("\(folio.client)/objects")
                _ = try await folio.get("\(folio.client)/objects")
                #expect(upstream.requestCount == 1)
                #expect(try await folio.post("\(folio.admin)/purge?route=objects").status == 204)
                _ = try await folio.get("\(folio.client)/objects")
                #expect(upstream.requestCount == 2)
            }
        }
    }

    @Test func purgeOfAnUnknownRouteIs400() async throws {
        try await withTestUpstream({ _ in .json("[]") }) { upstream in
            _ = try await withFolio(gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true)) {
                folio async throws in
                #expect(try await folio.post("\(folio.admin)/purge?route=nope").status == 400)
            }
        }
    }

    @Test func purgeWithAnAdminTokenNeedsTheBearer() async throws {
        try await withTestUpstream({ _ in .json("[]") }) { upstream in
            let yaml = gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true, server: "adminToken: s3cret")
            _ = try await withFolio(yaml) { folio async throws in
                let url = "\(folio.admin)/purge?route=objects"
                #expect(try await folio.post(url).status == 401)
                #expect(try await folio.post(url, headers: [("Authorization", "Bearer wrong")]).status == 401)
                #expect(try await folio.post(url, headers: [("Authorization", "Bearer s3cret")]).status == 204)
                // The scheme is case-insensitive (RFC 9110 11.1); the token is not.
                #expect(try await folio.post(url, headers: [("Authorization", "bearer s3cret")]).status == 204)
                #expect(try await folio.post(url, headers: [("Authorization", "BEARER S3CRET")]).status == 401)
                #expect(try await folio.post(url, headers: [("Authorization", "Basic s3cret")]).status == 401)
            }
        }
    }

    @Test func purgeUsesTheReloadedAdminToken() async throws {
        try await withTestUpstream({ _ in .json("[]") }) { upstream in
            _ = try await withFolio(
                gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true, server: "adminToken: old")
            ) { folio in
                let reloaded = try ConfigurationLoader.parse(
                    yaml: gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true, server: "adminToken: new"),
                    file: "new.yaml")
                #expect(await folio.server.reload(configuration: reloaded).applied)
                let url = "\(folio.admin)/purge?route=objects"
                #expect(try await folio.post(url, headers: [("Authorization", "Bearer old")]).status == 401)
                #expect(try await folio.post(url, headers: [("Authorization", "Bearer new")]).status == 204)
            }
        }
    }
}
