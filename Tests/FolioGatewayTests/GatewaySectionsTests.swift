import FolioEngine
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import FolioGateway

/// docs/API.md's "Sorting" and "Section index" through the gateway: sorted routes, section
/// indexes, beginsWith, groupBy, filters.
@Suite struct GatewaySectionsTests {
    static let names = [
        "Émile", "zoë", "Anna", "Ørjan", "42nd street", "Łukasz", "йога", "Bob", "ßtraße", "anders",
        "Þór", "_private", "Ælfric", "Œuvre", "Zed", "béla", "Ирина", "😀 smile", "Carl", "Đorđe",
    ]

    /// Elements with a name, a category and an id; one without a name and one with a null name.
    static func body() -> (body: String, elements: [String]) {
        var elements = names.enumerated().map { index, name in
            #"{"id":\#(index),"name":"\#(name)","category":"\#(["a", "b", "c"][index % 3])"}"#
        }
        elements.append(#"{"id":100,"category":"a"}"#)
        elements.append(#"{"id":101,"name":null,"category":"b"}"#)
        return ("[" + elements.joined(separator: ",") + "]", elements)
    }

    static let route = """
        sort: [name]
        sectionKey: name
        sortable: [id]
        groupable: [category]
        """

    @Test func sectionIndexCountsOffsetsAndUrlsWalkEveryItemOnce() async throws {
        let (body, elements) = Self.body()
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: Self.route)) { client, _ in
                let sorted = try await client.execute(uri: "/objects?pageSize=100", method: .get)
                let order = try rawItems(sorted.text)
                #expect(Set(order) == Set(elements))
                // Folded: ÆLFRIC < ANDERS < ANNA < BELA < BOB …
                #expect(Array(order.prefix(5)) == [12, 9, 2, 15, 7].map { elements[$0] })

                let index = try await client.execute(
                    uri: "/objects?groupBy=alphabetical&metadataOnly&x=1", method: .get)
                #expect(index.status == .ok)
                let sections = try #require(
                    try JSONSerialization.jsonObject(with: Data(buffer: index.body)) as? [[String: Any]])
                let titles = sections.compactMap { $0["title"] as? String }
                #expect(titles.last == "#")
                #expect(titles.first == "A")
                let counts = sections.compactMap { $0["count"] as? Int }
                #expect(counts.reduce(0, +) == elements.count)
                var expectedOffset = 0
                var walked: [String] = []
                for section in sections {
                    #expect(section["offset"] as? Int == expectedOffset)
                    let count = try #require(section["count"] as? Int)
                    let url = try #require(section["url"] as? String)
                    #expect(url.hasPrefix("/objects?x=1&beginsWith="))
                    #expect(url.contains("&snapshot="))
                    let page = try await client.execute(uri: url + "&pageSize=100", method: .get)
                    let items = try rawItems(page.text)
                    #expect(items.count == count, "section \(section["title"] ?? "")")
                    #expect(
                        items == Array(order[expectedOffset..<expectedOffset + count]),
                        "sections are contiguous in the sorted order")
                    walked += items
                    expectedOffset += count
                }
                #expect(walked == order)
                let hash = sections.last?["url"] as? String
                #expect(hash?.contains("beginsWith=%23") == true)
                #expect(upstream.requestCount == 1, "sections, filters and sorts are cut from one snapshot")
            }
        }
    }

    @Test func beginsWithFoldsAndPagesWithLinksThatKeepIt() async throws {
        let (body, _) = Self.body()
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: Self.route)) { client, _ in
                let e = try await client.execute(uri: "/objects?beginsWith=%C3%A9&pageSize=1", method: .get)
                #expect(e.status == .ok)
                let paging = try e.json.paging
                #expect(paging["totalCount"] as? Int == 1, "only Émile starts with E")
                let z = try await client.execute(uri: "/objects?beginsWith=z&pageSize=1&sort=-id", method: .get)
                let zPaging = try z.json.paging
                #expect(zPaging["totalCount"] as? Int == 2)
                #expect(
                    try rawItems(z.text).first?.contains("\"Zed\"") == true,
                    "Zed (id 14) before zoë (id 1) in -id order")
                let next = try #require(zPaging["next"] as? String)
                #expect(next.hasPrefix("/objects?beginsWith=z&sort=-id&pageSize=1&offset=1&snapshot="))
                let second = try await client.execute(uri: next, method: .get)
                #expect(try rawItems(second.text).first?.contains("zoë") == true)
            }
        }
    }

    @Test func groupByFieldAndFilters() async throws {
        let (body, elements) = Self.body()
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: Self.route)) { client, _ in
                let index = try await client.execute(uri: "/objects?groupBy=category&metadataOnly", method: .get)
                let sections = try #require(
                    try JSONSerialization.jsonObject(with: Data(buffer: index.body)) as? [[String: Any]])
                #expect(sections.compactMap { $0["title"] as? String } == ["a", "b", "c"])
                for section in sections {
                    let title = try #require(section["title"] as? String)
                    let url = try #require(section["url"] as? String)
                    #expect(url.hasPrefix("/objects?category=\(title)&snapshot="))
                    let page = try await client.execute(uri: url + "&pageSize=100", method: .get)
                    let expected = elements.filter { $0.contains("\"category\":\"\(title)\"") }
                    #expect(Set(try rawItems(page.text)) == Set(expected))
                    #expect(section["count"] as? Int == expected.count)
                }
                let filtered = try await client.execute(uri: "/objects?category=b&sort=id&pageSize=100", method: .get)
                #expect(try rawItems(filtered.text) == elements.filter { $0.contains("\"category\":\"b\"") })
            }
        }
    }

    @Test func descendingIsTheReverseForDistinctNames() async throws {
        let (body, elements) = Self.body()
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: Self.route)) { client, _ in
                let up = try rawItems(
                    try await client.execute(uri: "/objects?pageSize=100&sort=name", method: .get).text)
                let down = try rawItems(
                    try await client.execute(uri: "/objects?pageSize=100&sort=-name", method: .get).text)
                let named = up.filter { $0.contains("\"name\":\"") }
                #expect(Array(down.prefix(named.count)) == named.reversed(), "strings reversed, missing/null stay last")
                #expect(up.count == elements.count && down.count == elements.count)
            }
        }
    }

    @Test func filtersNarrowTheSectionIndex() async throws {
        let (body, elements) = Self.body()
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: Self.route)) { client, _ in
                let index = try await client.execute(
                    uri: "/objects?groupBy=alphabetical&metadataOnly&category=a", method: .get)
                let sections = try #require(
                    try JSONSerialization.jsonObject(with: Data(buffer: index.body)) as? [[String: Any]])
                let inA = elements.filter { $0.contains("\"category\":\"a\"") }
                #expect(sections.compactMap { $0["count"] as? Int }.reduce(0, +) == inA.count)
                #expect(index.header("X-Total-Count") == String(inA.count))
                // Offsets are positions in the filtered list, which the route sorts by name.
                let filtered = try rawItems(
                    try await client.execute(uri: "/objects?category=a&pageSize=100", method: .get).text)
                var walked: [String] = []
                for section in sections {
                    let url = try #require(section["url"] as? String)
                    #expect(url.contains("category=a"), "urls keep the filter")
                    let items = try rawItems(try await client.execute(uri: url + "&pageSize=100", method: .get).text)
                    let offset = try #require(section["offset"] as? Int)
                    #expect(Array(filtered[offset..<offset + items.count]) == items)
                    #expect(section["count"] as? Int == items.count)
                    walked += items
                }
                #expect(walked == filtered)

                let byCategory = try await client.execute(
                    uri: "/objects?groupBy=category&metadataOnly&category=a&category=c", method: .get)
                let groups = try #require(
                    try JSONSerialization.jsonObject(with: Data(buffer: byCategory.body)) as? [[String: Any]])
                #expect(groups.compactMap { $0["title"] as? String } == ["a", "c"])
                #expect(groups.compactMap { $0["offset"] as? Int } == [0, inA.count])
            }
        }
    }

    /// `beginsWith` narrows a section index like any filter (docs/API.md, "Requests": "section indexes
    /// describe the filtered list"): by category, the counts of section A only; alphabetical,
    /// the one section.
    @Test func beginsWithNarrowsTheSectionIndex() async throws {
        let (body, _) = Self.body()
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: Self.route)) { client, _ in
                let inA = try rawItems(
                    try await client.execute(uri: "/objects?beginsWith=A&pageSize=100", method: .get).text)
                #expect(inA.count > 2 && inA.count < Self.names.count, "a section, not the list")
                let byCategory = try await client.execute(
                    uri: "/objects?groupBy=category&metadataOnly&beginsWith=A", method: .get)
                #expect(byCategory.header("X-Total-Count") == String(inA.count))
                let groups = try #require(
                    try JSONSerialization.jsonObject(with: Data(buffer: byCategory.body)) as? [[String: Any]])
                var walked: [String] = []
                for group in groups {
                    let url = try #require(group["url"] as? String)
                    #expect(url.contains("beginsWith=A"), "urls keep it")
                    let items = try rawItems(try await client.execute(uri: url + "&pageSize=100", method: .get).text)
                    #expect(group["count"] as? Int == items.count, "\(url)")
                    #expect(group["offset"] as? Int == walked.count)
                    walked += items
                }
                #expect(Set(walked) == Set(inA))

                let alphabetical = try await client.execute(
                    uri: "/objects?groupBy=alphabetical&metadataOnly&beginsWith=a", method: .get)
                let sections = try #require(
                    try JSONSerialization.jsonObject(with: Data(buffer: alphabetical.body)) as? [[String: Any]])
                #expect(sections.map { $0["title"] as? String } == ["A"])
                #expect(sections.first?["count"] as? Int == inA.count)
                #expect(alphabetical.header("X-Total-Count") == String(inA.count))
            }
        }
    }

    @Test func severalSortKeysCompareInTurn() async throws {
        let (body, elements) = Self.body()
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: Self.route)) { client, _ in
                let page = try await client.execute(uri: "/objects?pageSize=100&sort=category,-id", method: .get)
                // Reference: category ascending (a, b, c), then id descending.
                func key(_ element: String) -> (String, Int) {
                    let object = try! JSONSerialization.jsonObject(with: Data(element.utf8)) as! [String: Any]
                    return (object["category"] as! String, object["id"] as! Int)
                }
                let expected = elements.sorted {
                    key($0).0 != key($1).0 ? key($0).0 < key($1).0 : key($0).1 > key($1).1
                }
                #expect(try rawItems(page.text) == expected)
                let next = try #require(try (page.json["paging"] as? [String: Any])?["first"] as? String)
                #expect(next.contains("sort=category,-id"), "links keep the keys")

                for bad in ["category,", ",id", "id,-id", "category,price"] {
                    let response = try await client.execute(uri: "/objects?sort=\(bad)", method: .get)
                    #expect(response.status == .badRequest, "\(bad)")
                }
            }
        }
    }

    @Test func badSectionRequestsAre400() async throws {
        let (body, _) = Self.body()
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: Self.route)) { client, _ in
                for uri in [
                    "/objects?sort=price", "/objects?groupBy=alphabetical", "/objects?groupBy=price&metadataOnly",
                    "/objects?beginsWith=Ab", "/objects?beginsWith=",
                ] {
                    let response = try await client.execute(uri: uri, method: .get)
                    #expect(response.status == .badRequest, "\(uri)")
                    #expect(response.header("Content-Type") == "application/problem+json")
                }
                let sortError = try await client.execute(uri: "/objects?sort=price", method: .get)
                #expect(try (sortError.json["detail"] as? String)?.contains("name") == true, "names the allowed fields")
                #expect(upstream.requestCount == 0, "bad requests never reach the upstream")
            }
        }
    }
}
