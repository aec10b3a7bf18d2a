import FolioEngine
import Foundation
import HTTPTypes
import HummingbirdTesting
import Synchronization
import Testing

@testable import FolioGateway

/// docs/API.md, "Dialects" end to end: one route per dialect over the same upstream list; each real client's
/// own requests and its own way of walking to the end, against the upstream's elements.
@Suite struct GatewayDialectTests {
    static let dialects = [
        "folio", "drf", "hal", "jsonserver", "simplerest", "laravel", "jsonapi", "strapi", "stripe", "odata",
    ]

    /// 53 elements (not a multiple of the page sizes below), written with odd spacing so any
    /// re-encoding shows; prices all differ, names spread over several sections.
    static func elements(tag: String = "v1") -> [String] {
        let names = ["Apple", "Ørsted", "Œuvre", "banana", "Zeta", "42 things", "Éclair"]
        return (0..<53).map { i in
            #"{"id":\#(i), "name":"\#(names[i % names.count]) \#(i)","price":\#((i * 37) % 101),"tag":"\#(tag)"}"#
        }
    }

    /// One route per dialect, `/DIALECT/objects`, all on the upstream's `/objects`.
    static func yaml(_ upstream: String, server: String = "", route: String = "") -> String {
        let routes = dialects.map { dialect in
            """
              - name: \(dialect)
                path: /\(dialect)/objects
                upstream: \(upstream)/objects
                dialect: \(dialect)
                sortable: [price, id]
                sectionKey: name
                filterable: [id, price]
                searchable: [name]
                idField: id
            \(route.isEmpty ? "" : "    " + route)
            """
        }
        return """
            server:
              listen: 127.0.0.1:0
              admin: null
            \(server.isEmpty ? "" : "  " + server)
            routes:
            \(routes.joined(separator: "\n"))
            """
    }

    static func withDialects(
        server: String = "", route: String = "", elements: @escaping @Sendable () -> [String] = { elements() },
        _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        try await withTestUpstream({ _ in .json("[" + elements().joined(separator: ",") + "]") }) { upstream in
            try await withGateway(yaml(upstream.baseURL, server: server, route: route)) { client, _ in
                try await body(client)
            }
        }
    }

    static func get(
        _ client: any TestClientProtocol, _ uri: String, headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        let response = try await client.execute(uri: uri, method: .get, headers: headers)
        #expect(response.status == .ok || response.status == .partialContent, "\(uri): \(response.text)")
        return response
    }

    /// The items of a bare-array body, as the bytes the gateway sent.
    static func bareItems(_ body: String) throws -> [String] {
        try rawItems("{\"x\":" + body + "}", key: "x")
    }

    /// `rel`'s URL in a `Link` header.
    static func link(_ response: TestResponse, _ rel: String) -> String? {
        for part in (response.header("Link") ?? "").split(separator: ", ") where part.hasSuffix("rel=\"\(rel)\"") {
            return String(part.dropFirst().prefix(while: { $0 != ">" }))
        }
        return nil
    }

    static func price(_ element: String) throws -> Int {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(element.utf8)) as? [String: Any])
        return try #require(object["price"] as? Int)
    }

    // MARK: Walks, each in its client's own way

    @Test func drfClientsFollowNextToTheEnd() async throws {
        try await Self.withDialects { client in
            for start in ["/drf/objects?page_size=10", "/drf/objects?limit=10&offset=0", "/drf/objects?page=1"] {
                var seen: [String] = []
                var uri: String? = start
                while let current = uri, seen.count <= 60 {
                    let response = try await Self.get(client, current)
                    let page = try response.json
                    #expect(page["count"] as? Int == 53)
                    #expect(response.header("X-Total-Count") == "53")
                    // The body's links are the Link header's: null where the rel is absent.
                    #expect((page["previous"] as? String) == (seen.isEmpty ? nil : Self.link(response, "prev")))
                    #expect((page["next"] as? String) == Self.link(response, "next"))
                    seen += try rawItems(response.text, key: "results")
                    uri = page["next"] as? String
                }
                #expect(seen == Self.elements(), "walk from \(start)")
            }
            // Links stay in the style the client used.
            let limit = try await Self.get(client, "/drf/objects?limit=10&offset=0").json
            #expect((limit["next"] as? String)?.contains("limit=10&offset=10&snapshot=") == true)
        }
    }

    @Test func halClientsFollowTheNextRelToTheEnd() async throws {
        try await Self.withDialects { client in
            let byPriceDescending = try Self.elements().sorted { try Self.price($0) > Self.price($1) }
            for (start, expected) in [
                ("/hal/objects?page=0&size=10", Self.elements()),
                ("/hal/objects?sort=price,desc&size=7", byPriceDescending),
            ] {
                var seen: [String] = []
                var uri: String? = start
                var number = 0
                while let current = uri, seen.count <= 60 {
                    let response = try await Self.get(client, current)
                    #expect(response.header("Content-Type") == "application/hal+json")
                    let body = try response.json
                    let page = try #require(body["page"] as? [String: Any])
                    #expect(page["totalElements"] as? Int == 53 && page["number"] as? Int == number)
                    let links = try #require(body["_links"] as? [String: [String: String]])
                    #expect(links["prev"] == nil || number > 0)
                    #expect(links["self"]?["href"] != nil && links["first"]?["href"] == Self.link(response, "first"))
                    seen += try rawItems(response.text, key: "objects")
                    uri = links["next"]?["href"]
                    #expect(uri == Self.link(response, "next"))
                    number += 1
                }
                #expect(seen == expected, "walk from \(start)")
                #expect(number == (53 + (start.contains("size=7") ? 6 : 9)) / (start.contains("size=7") ? 7 : 10))
            }
        }
    }

    @Test func jsonServerClientsWalkByPageAndByWindow() async throws {
        try await Self.withDialects { client in
            // json-server's _page, incremented until X-Total-Count items have come.
            var seen: [String] = []
            var page = 1
            var total = Int.max
            while seen.count < total, page < 20 {
                let response = try await Self.get(client, "/jsonserver/objects?_page=\(page)&_limit=10")
                total = try #require(response.header("X-Total-Count").flatMap { Int($0) })
                seen += try Self.bareItems(response.text)
                page += 1
            }
            #expect(seen == Self.elements())
            // ra-data-json-server's getList: `_end`, `_order`, `_sort`, `_start` (stringify sorts keys).
            seen = []
            var start = 0
            while start < total {
                let response = try await Self.get(
                    client, "/jsonserver/objects?_end=\(start + 10)&_order=DESC&_sort=price&_start=\(start)")
                #expect(response.header("X-Total-Count") == "53")
                seen += try Self.bareItems(response.text)
                start += 10
            }
            #expect(seen == (try Self.elements().sorted { try Self.price($0) > Self.price($1) }))
            // json-server's filters, and getMany's repeated id.
            let filtered = try await Self.get(
                client, "/jsonserver/objects?price_gte=10&price_lte=20&id_ne=1&_limit=100")
            let expected = try Self.elements().filter { element in
                let price = try Self.price(element)
                return price >= 10 && price <= 20 && !element.hasPrefix(#"{"id":1,"#)
            }
            #expect(try Self.bareItems(filtered.text) == expected)
            #expect(filtered.header("X-Total-Count") == String(expected.count))
            let many = try await Self.get(client, "/jsonserver/objects?id=3&id=5&id=8")
            #expect(try Self.bareItems(many.text) == [3, 5, 8].map { Self.elements()[$0] })
            // One comparison in both spellings is one parameter given twice (docs/API.md, "Requests"), not a
            // silent choice of one of them.
            for uri in ["/jsonserver/objects?id_gte=10&id%5Bgte%5D=11", "/jsonserver/objects?id[ne]=1&id_ne=2"] {
                let twice = try await client.execute(uri: uri, method: .get)
                _ = try checkProblem(twice, status: 400, code: "duplicate-parameter")
            }
        }
    }

    @Test func simpleRestClientsWalkByRangeWindows() async throws {
        try await Self.withDialects { client in
            var seen: [String] = []
            var start = 0
            var total = Int.max
            while start < total {
                // ra-data-simple-rest's getList, with the Range header it adds (another unit: ignored).
                let uri =
                    "/simplerest/objects?filter=%7B%7D&range=%5B\(start)%2C\(start + 9)%5D&sort=%5B%22id%22%2C%22ASC%22%5D"
                let response = try await Self.get(client, uri, headers: [.range: "objects=\(start)-\(start + 9)"])
                #expect(response.status == .ok)
                let contentRange = try #require(response.header("Content-Range"))
                let items = try Self.bareItems(response.text)
                #expect(contentRange == "objects \(start)-\(start + items.count - 1)/53")
                total = try #require(Int(contentRange.split(separator: "/").last ?? ""))
                seen += items
                start += 10
            }
            #expect(seen == Self.elements())
            // getMany and a search through `filter`.
            let many = try await Self.get(client, #"/simplerest/objects?filter=%7B%22id%22%3A%5B8%2C3%2C5%5D%7D"#)
            #expect(try Self.bareItems(many.text) == [3, 5, 8].map { Self.elements()[$0] })
            #expect(many.header("Content-Range") == "objects 0-2/3")
            let search = try await Self.get(
                client, "/simplerest/objects?filter=%7B%22q%22%3A%22orst%22%7D&range=%5B0%2C99%5D")
            #expect(try Self.bareItems(search.text) == Self.elements().filter { $0.contains("Ørsted") })
            let none = try await Self.get(client, "/simplerest/objects?filter=%7B%22id%22%3A999%7D")
            #expect(none.header("Content-Range") == "objects */0" && none.text == "[]")
            let past = try await Self.get(client, "/simplerest/objects?range=%5B100%2C109%5D")
            #expect(past.header("Content-Range") == "objects */53")
        }
    }

    // MARK: Folio's parameters in every dialect

    @Test func metadataOnlyInEachDialect() async throws {
        try await Self.withDialects { client in
            let drf = try await Self.get(client, "/drf/objects?page_size=10&page=2&metadataOnly")
            #expect(Set(try drf.json.keys) == ["count", "next", "previous"])
            #expect((try drf.json["next"] as? String)?.hasPrefix("/drf/objects?page_size=10&page=3&snapshot=") == true)
            let hal = try await Self.get(client, "/hal/objects?size=10&page=1&metadataOnly")
            #expect(Set(try hal.json.keys) == ["_links", "page"])
            #expect(hal.header("Content-Type") == "application/hal+json")
            for (uri, next) in [
                (
                    "/jsonserver/objects?_limit=10&_page=2&metadataOnly",
                    "/jsonserver/objects?_limit=10&_page=3&snapshot="
                ),
                (
                    "/simplerest/objects?range=%5B10%2C19%5D&metadataOnly",
                    "/simplerest/objects?range=%5B20%2C29%5D&snapshot="
                ),
            ] {
                let response = try await Self.get(client, uri)
                let paging = try response.json.paging
                #expect(Set(try response.json.keys) == ["paging"])
                #expect(paging["totalCount"] as? Int == 53 && paging["offset"] as? Int == 10)
                #expect((paging["next"] as? String)?.hasPrefix(next) == true, "\(uri)")
                #expect(response.header("Content-Range") == nil)
            }
        }
    }

    @Test func linksArePinnedToTheirSnapshotInEachDialect() async throws {
        let version = Mutex("v1")
        try await Self.withDialects(
            route: "cache: { ttl: 0s, staleWhileRevalidate: 0s, staleIfError: 0s }",
            elements: { Self.elements(tag: version.withLock { $0 }) }
        ) { client in
            let firsts = [
                "/drf/objects?page_size=10", "/hal/objects?size=10", "/jsonserver/objects?_limit=10",
                "/simplerest/objects?range=%5B0%2C9%5D", "/folio/objects?pageSize=10",
            ]
            var nexts: [String] = []
            for first in firsts {
                let response = try await Self.get(client, first)
                #expect(response.header("ETag") != nil && response.header("Cache-Status") != nil)
                nexts.append(try #require(Self.link(response, "next")))
            }
            version.withLock { $0 = "v2" }
            for (first, next) in zip(firsts, nexts) {
                let fresh = try await Self.get(client, first)
                #expect(fresh.text.contains("\"v2\"") && !fresh.text.contains("\"v1\""), "\(first)")
                let pinned = try await Self.get(client, next)
                #expect(pinned.text.contains("\"v1\"") && !pinned.text.contains("\"v2\""), "\(next)")
                #expect(pinned.text.contains(Self.elements()[10]), "\(next)")
            }
        }
    }

    @Test func sectionIndexesInEachDialect() async throws {
        try await Self.withDialects { client in
            for dialect in Self.dialects {
                let response = try await Self.get(client, "/\(dialect)/objects?groupBy=alphabetical&metadataOnly")
                let sections = try #require(
                    try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [[String: Any]])
                #expect(sections.compactMap { $0["count"] as? Int }.reduce(0, +) == 53)
                #expect(sections.count > 3)
                for section in sections {
                    let url = try #require(section["url"] as? String)
                    let page = try await Self.get(client, url)
                    #expect(page.header("X-Total-Count") == String(section["count"] as? Int ?? -1), "\(url)")
                }
            }
        }
    }

    @Test func foliosOwnParametersAndHeadersStayInEachDialect() async throws {
        try await Self.withDialects { client in
            // `fields` cuts the items, bytes unchanged, inside each dialect's body.
            let drf = try await Self.get(client, "/drf/objects?page_size=2&fields=id,price")
            #expect(try rawItems(drf.text, key: "results") == [#"{"id":0,"price":0}"#, #"{"id":1,"price":37}"#])
            let hal = try await Self.get(client, "/hal/objects?size=1&page=2&fields=price")
            #expect(try rawItems(hal.text, key: "objects") == [#"{"price":74}"#])
            // A Range is a 206 with Folio's Content-Range, in the dialect's body.
            let ranged = try await Self.get(client, "/hal/objects", headers: [.range: "items=5-7"])
            #expect(ranged.status == .partialContent && ranged.header("Content-Range") == "items 5-7/53")
            #expect(try rawItems(ranged.text, key: "objects") == Array(Self.elements()[5...7]))
            // ETag and If-None-Match: a 304 keeps Link and X-Total-Count.
            let page = try await Self.get(client, "/simplerest/objects?range=%5B0%2C4%5D")
            let etag = try #require(page.header("ETag"))
            let again = try await client.execute(
                uri: "/simplerest/objects?range=%5B0%2C4%5D", method: .get, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            #expect(again.header("Link") == page.header("Link") && again.header("X-Total-Count") == "53")
            // The same slice in another dialect is another representation.
            let folio = try await Self.get(client, "/folio/objects?pageSize=5")
            #expect(folio.header("ETag") != etag)
        }
    }

    @Test func linksAreAbsoluteWithPublicBaseURL() async throws {
        try await Self.withDialects(server: "publicBaseURL: https://api.example.com") { client in
            let drf = try await Self.get(client, "/drf/objects?page_size=10").json
            #expect(
                (drf["next"] as? String)?.hasPrefix("https://api.example.com/drf/objects?page_size=10&page=2") == true)
            let hal = try await Self.get(client, "/hal/objects").json
            let links = try #require(hal["_links"] as? [String: [String: String]])
            #expect(links.values.allSatisfy { $0["href"]?.hasPrefix("https://api.example.com/hal/objects?") == true })
        }
    }

    @Test func malformedDialectParametersAreProblems() async throws {
        let cases = [
            "/simplerest/objects?range=%5B5%5D", "/simplerest/objects?sort=%5B%22a%22%5D",
            "/simplerest/objects?filter=%7B", "/jsonserver/objects?_order=up", "/drf/objects?page=0",
            "/hal/objects?page=-1", "/jsonserver/objects?_page=2&_start=0",
            // Sort permissions are the same as for Folio's `sort` (tag is not sortable).
            "/hal/objects?sort=tag,desc", "/jsonserver/objects?_sort=tag", "/drf/objects?sort=tag",
            "/simplerest/objects?sort=%5B%22tag%22%2C%22ASC%22%5D",
        ]
        try await Self.withDialects { client in
            for uri in cases {
                let response = try await client.execute(uri: uri, method: .get)
                try checkProblem(response, status: 400)
                #expect(response.header("Access-Control-Expose-Headers")?.contains("Content-Range") == true)
            }
        }
    }
}
