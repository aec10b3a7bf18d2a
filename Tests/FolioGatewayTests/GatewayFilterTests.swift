import Foundation
import HummingbirdTesting
import Testing

@testable import FolioGateway

/// Filters through the gateway (docs/API.md, "Requests"): "any of" values, comparisons, totals and links that
/// describe the filtered list.
@Suite struct GatewayFilterTests {
    static let elements = [
        #"{"id":0,"price":1,"category":"a"}"#, #"{"id":1,"price":2.5,"category":"b"}"#,
        #"{"id":2,"price":1.0,"category":"c"}"#, #"{"id":3,"price":"cheap","category":"a"}"#,
        #"{"id":4,"category":"b"}"#, #"{"id":5,"price":null,"category":"c"}"#,
        #"{"id":6,"price":10,"category":"a"}"#, #"{"id":7,"price":5e0,"category":"b"}"#,
    ]

    static func ids(_ response: TestResponse) throws -> [Int] {
        try rawItems(response.text).map { element in
            let object = try JSONSerialization.jsonObject(with: Data(element.utf8)) as? [String: Any]
            return try #require(object?["id"] as? Int)
        }
    }

    @Test func filtersCombineAndTheTotalsFollowThem() async throws {
        let route = "groupable: [category]\nfilterable: [price]"
        try await withTestUpstream({ _ in .json("[" + Self.elements.joined(separator: ",") + "]") }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: route)) { client, _ in
                let cases: [(String, [Int])] = [
                    ("category=a&category=c", [0, 2, 3, 5, 6]),
                    ("price=1", [0, 2]),
                    ("price%5Bgte%5D=2&price[lt]=10", [1, 7]),
                    ("price[gt]=1", [1, 6, 7]),
                    ("price[lte]=dear", [3]),
                    ("price[ne]=1", [1, 3, 4, 5, 6, 7]),
                    ("price[ne]=1&category=b", [1, 4, 7]),
                ]
                for (query, expected) in cases {
                    let response = try await client.execute(uri: "/objects?\(query)&pageSize=2", method: .get)
                    #expect(response.status == .ok, "\(query)")
                    #expect(try Self.ids(response) == Array(expected.prefix(2)), "\(query)")
                    #expect(response.header("X-Total-Count") == String(expected.count), "\(query)")
                    let paging = try #require(try response.json["paging"] as? [String: Any])
                    #expect(paging["totalCount"] as? Int == expected.count)
                    if expected.count > 2 {
                        let next = try #require(paging["next"] as? String)
                        let rest = try await client.execute(uri: next, method: .get)
                        #expect(try Self.ids(rest) == Array(expected.dropFirst(2).prefix(2)), "\(query) next")
                    }
                }
                for bad in ["price[between]=1", "price[gt]=1&price[gt]=2"] {
                    let response = try await client.execute(uri: "/objects?\(bad)", method: .get)
                    #expect(response.status == .badRequest, "\(bad)")
                }
                // A filter on a field that is not filterable is an ignored parameter.
                let ignored = try await client.execute(uri: "/objects?id[gt]=3&pageSize=100", method: .get)
                #expect(try Self.ids(ignored) == Array(0..<8))
                #expect(upstream.requestCount == 1)
            }
        }
    }
}

/// `?q=` through the gateway (docs/API.md, "Requests").
@Suite struct GatewaySearchTests {
    @Test func qSearchesTheSearchableFieldsFoldedAndCombinesWithFilters() async throws {
        let elements = [
            #"{"id":0,"name":"Ørsted","price":3}"#, #"{"id":1,"name":"Œuvre","price":1}"#,
            #"{"id":2,"name":"Oeuvre","other":"ørsted"}"#, #"{"id":3,"name":"hors-d'œuvre","price":2}"#,
        ]
        let route = "searchable: [name]\nfilterable: [price]"
        try await withTestUpstream({ _ in .json("[" + elements.joined(separator: ",") + "]") }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: route)) { client, _ in
                let cases: [(String, [Int])] = [
                    ("q=orst", [0]), ("q=OUV", [1, 3]), ("q=%C5%92uv", [1, 3]), ("q=", [0, 1, 2, 3]),
                    ("q=uv&price[gte]=2", [3]), ("q=nothing", []),
                ]
                for (query, expected) in cases {
                    let response = try await client.execute(uri: "/objects?\(query)&pageSize=10", method: .get)
                    #expect(try GatewayFilterTests.ids(response) == expected, "\(query)")
                    #expect(response.header("X-Total-Count") == String(expected.count))
                }
                let page = try await client.execute(uri: "/objects?q=uv&pageSize=1", method: .get)
                let next = try #require(try (page.json["paging"] as? [String: Any])?["next"] as? String)
                #expect(next.contains("q=uv"), "links keep q")
            }
            try await withGateway(gatewayYAML(upstream: upstream.baseURL)) { client, _ in
                let response = try await client.execute(uri: "/objects?q=x", method: .get)
                #expect(response.status == .badRequest, "q without searchable fields")
            }
        }
    }
}
