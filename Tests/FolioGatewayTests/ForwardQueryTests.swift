import HummingbirdTesting
import Testing

@testable import FolioGateway

/// `forwardQuery` (docs/CONFIG.md; docs/CACHING.md, "One snapshot per key"): the named query parameters reach the
/// upstream and select the list, one per value however the client spells it; Folio's own parameters never reach it.
@Suite struct ForwardQueryTests {
    static func yaml(_ upstream: String) -> String {
        gatewayYAML(upstream: upstream + "/api", route: "forwardQuery: [tenant, region]")
    }

    /// Each tenant's list is its own; paging and unknown parameters stay with Folio.
    @Test func eachValueIsItsOwnList() async throws {
        try await withTestUpstream({ request in .json(#"[{"query":"\#(request.query ?? "")"}]"#) }) { upstream in
            try await withGateway(Self.yaml(upstream.baseURL)) { client, _ in
                let a = try await client.execute(uri: "/objects?tenant=a&pageSize=5&other=1", method: .get)
                let b = try await client.execute(uri: "/objects?pageSize=5&tenant=b", method: .get)
                #expect(try rawItems(a.text) == [#"{"query":"tenant=a"}"#])
                #expect(try rawItems(b.text) == [#"{"query":"tenant=b"}"#])
                #expect(upstream.requests.map(\.query) == ["tenant=a", "tenant=b"])
                let next = try await client.execute(uri: "/objects?tenant=a&pageSize=1&offset=0", method: .get)
                #expect(next.header("Cache-Status")?.hasPrefix("folio; hit") == true)
                #expect(upstream.requestCount == 2)
            }
        }
    }

    /// The same values spelled otherwise (escaped unreserved characters, lower-case escapes,
    /// another order of the forwarded names) are the same list: one upstream request, sent in
    /// one spelling.
    @Test func oneValueSpelledOtherwiseIsOneList() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(3).body) }) { upstream in
            try await withGateway(Self.yaml(upstream.baseURL)) { client, _ in
                let spellings = [
                    "/objects?tenant=acme&region=%c3%a9u",
                    "/objects?region=%C3%A9u&tenant=%61cme",
                    "/objects?pageSize=2&%72egion=%C3%A9%75&tenant=acm%65",
                ]
                for uri in spellings {
                    let response = try await client.execute(uri: uri, method: .get)
                    #expect(response.status == .ok, "\(uri)")
                }
                #expect(upstream.requestCount == 1)
                #expect(upstream.requests.first?.query == "region=%C3%A9u&tenant=acme")
            }
        }
    }

    /// Values that an upstream may read differently (`+` against `%2B`, `%20`) are not merged.
    @Test func valuesThatMayDifferStayApart() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(3).body) }) { upstream in
            try await withGateway(Self.yaml(upstream.baseURL)) { client, _ in
                for uri in ["/objects?tenant=a+b", "/objects?tenant=a%2Bb", "/objects?tenant=a%20b"] {
                    let response = try await client.execute(uri: uri, method: .get)
                    #expect(response.status == .ok, "\(uri)")
                }
                #expect(upstream.requests.map(\.query) == ["tenant=a+b", "tenant=a%2Bb", "tenant=a%20b"])
            }
        }
    }
}
