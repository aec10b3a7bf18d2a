import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import FolioGateway

/// docs/API.md's "Requests", "The page" and "Headers on every page" against a real upstream and a
/// real gateway.
@Suite struct GatewayPagingTests {
    @Test func seedExampleGivesTotalCountAndNextLink() async throws {
        let (body, elements) = objectsBody(1_337)
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL + "/api/objects")) { client, _ in
                let response = try await client.execute(uri: "/objects?pageSize=25&offset=0", method: .get)
                #expect(response.status == .ok)
                let json = try response.json
                let paging = json.paging
                #expect(paging["totalCount"] as? Int == 1_337)
                #expect(paging["offset"] as? Int == 0)
                #expect(paging["pageSize"] as? Int == 25)
                #expect(paging["page"] as? Int == 0)
                #expect(paging["pageCount"] as? Int == 54)
                #expect(paging["hasMore"] as? Bool == true)
                #expect(paging["previous"] is NSNull)
                let token = try #require(paging["snapshot"] as? String)
                #expect(paging["next"] as? String == "/objects?pageSize=25&offset=25&snapshot=\(token)")
                #expect(paging["last"] as? String == "/objects?pageSize=25&offset=1325&snapshot=\(token)")
                #expect(try rawItems(response.text) == Array(elements[0..<25]))
                #expect(response.header("X-Total-Count") == "1337")
                #expect(response.header("Accept-Ranges") == "items")
                #expect(response.header("Content-Type") == "application/json")
                #expect(response.header("Access-Control-Expose-Headers") == "Link, X-Total-Count, ETag, Content-Range")
                let link = try #require(response.header("Link"))
                #expect(link.contains("</objects?pageSize=25&offset=25&snapshot=\(token)>; rel=\"next\""))
                #expect(link.contains("rel=\"first\""))
                #expect(link.contains("rel=\"last\""))
                #expect(!link.contains("rel=\"prev\""))
            }
        }
    }

    @Test func walkingNextLinksVisitsEveryItemOnceInOrder() async throws {
        let (body, elements) = objectsBody(503)
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL + "/objects")) { client, _ in
                for pageSize in [1, 7, 25, 100, 503, 600] {
                    var seen: [String] = []
                    var next: String? = "/objects?pageSize=\(pageSize)"
                    while let uri = next {
                        let response = try await client.execute(uri: uri, method: .get)
                        #expect(response.status == .ok)
                        let items = try rawItems(response.text)
                        let paging = try response.json.paging
                        next = paging["next"] as? String
                        // The default maxPageSize (500) clamps the larger sizes.
                        #expect(paging["pageSize"] as? Int == min(pageSize, 500))
                        if next != nil { #expect(items.count == min(pageSize, 500), "every page but the last is full") }
                        seen += items
                    }
                    #expect(seen == elements, "pageSize \(pageSize)")
                }
                #expect(upstream.requestCount == 1)
            }
        }
    }

    @Test func pageNumbersRespectPageBase() async throws {
        let (body, elements) = objectsBody(60)
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: "pageBase: 1")) { client, _ in
                let response = try await client.execute(uri: "/objects?pageSize=25&page=2", method: .get)
                let paging = try response.json.paging
                #expect(paging["offset"] as? Int == 25)
                #expect(paging["page"] as? Int == 2)
                #expect(paging["pageBase"] as? Int == 1)
                let token = try #require(paging["snapshot"] as? String)
                #expect(paging["next"] as? String == "/objects?pageSize=25&page=3&snapshot=\(token)")
                #expect(paging["previous"] as? String == "/objects?pageSize=25&page=1&snapshot=\(token)")
                #expect(try rawItems(response.text) == Array(elements[25..<50]))
                let low = try await client.execute(uri: "/objects?page=0", method: .get)
                #expect(low.status == .badRequest)
            }
        }
    }

    @Test func fiftyPagesMakeOneUpstreamFetch() async throws {
        let (body, _) = objectsBody(1_000)
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL)) { client, _ in
                for i in 0..<50 {
                    let response = try await client.execute(uri: "/objects?pageSize=20&offset=\(i * 20)", method: .get)
                    #expect(response.status == .ok)
                    #expect(
                        response.header("Cache-Status")
                            == (i == 0 ? "folio; fwd=miss; stored" : response.header("Cache-Status")))
                    if i > 0 { #expect(response.header("Cache-Status")?.hasPrefix("folio; hit; ttl=") == true) }
                }
                #expect(upstream.requestCount == 1)
            }
        }
    }

    @Test func concurrentColdRequestsCoalesceIntoOneFetch() async throws {
        let (body, _) = objectsBody(300)
        try await withTestUpstream({ _ in
            var reply = TestUpstream.Reply.json(body)
            reply.delay = .milliseconds(300)
            return reply
        }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL)) { client, _ in
                let answers = try await concurrentGets(
                    client, (0..<30).map { "/objects?pageSize=10&offset=\($0 * 10)" })
                #expect(answers.allSatisfy { $0.status == 200 })
                let statuses = answers.map(\.cacheStatus)
                #expect(upstream.requestCount == 1)
                #expect(statuses.filter { $0 == "folio; fwd=miss; stored" }.count == 1)
                #expect(statuses.filter { $0 == "folio; fwd=miss; collapsed" }.count > 0, "requests really overlapped")
            }
        }
    }

    @Test func metadataOnlyHeadBareArrayAndItemsKey() async throws {
        let (body, elements) = objectsBody(30)
        try await withTestUpstream({ _ in .json(#"{"data":{"list":"# + body + "}}") }) { upstream in
            let yaml = gatewayYAML(upstream: upstream.baseURL, route: "items: /data/list\nitemsKey: results")
            try await withGateway(yaml) { client, _ in
                let meta = try await client.execute(uri: "/objects?pageSize=10&metadataOnly", method: .get)
                let json = try meta.json
                #expect(json.keys.sorted() == ["paging"])
                #expect(json.paging["totalCount"] as? Int == 30)
                #expect((json.paging["next"] as? String)?.contains("metadataOnly") == false)
                let page = try await client.execute(uri: "/objects?pageSize=10", method: .get)
                #expect(try rawItems(page.text, key: "results") == Array(elements[0..<10]))
                let head = try await client.execute(uri: "/objects?pageSize=10", method: .head)
                #expect(head.status == .ok)
                #expect(head.body.readableBytes == 0)
                #expect(head.header("X-Total-Count") == "30")
                #expect(head.header("Link") == page.header("Link"))
            }
            let bare = gatewayYAML(upstream: upstream.baseURL, route: "items: /data/list\nenvelope: false")
            try await withGateway(bare) { client, _ in
                let page = try await client.execute(uri: "/objects?pageSize=10&offset=20", method: .get)
                #expect(page.text == "[" + elements[20..<30].joined(separator: ",") + "]")
                #expect(page.header("X-Total-Count") == "30")
                #expect(page.header("Link")?.contains("rel=\"prev\"") == true)
                let meta = try await client.execute(uri: "/objects?metadataOnly", method: .get)
                #expect(try meta.json.paging["totalCount"] as? Int == 30)
            }
        }
    }

    @Test func rangeHeaderGivesPartialContent() async throws {
        let (body, elements) = objectsBody(1_337)
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL)) { client, _ in
                let partial = try await client.execute(uri: "/objects", method: .get, headers: [.range: "items=50-74"])
                #expect(partial.status == .partialContent)
                #expect(partial.header("Content-Range") == "items 50-74/1337")
                #expect(try rawItems(partial.text) == Array(elements[50..<75]))
                #expect(try partial.json.paging["pageSize"] as? Int == 25)
                let tail = try await client.execute(uri: "/objects", method: .get, headers: [.range: "items=1330-1400"])
                #expect(tail.status == .partialContent)
                #expect(tail.header("Content-Range") == "items 1330-1336/1337")
                let beyond = try await client.execute(
                    uri: "/objects", method: .get, headers: [.range: "items=1337-1340"])
                #expect(beyond.status == .rangeNotSatisfiable)
                #expect(beyond.header("Content-Range") == "items */1337")
                let conflict = try await client.execute(
                    uri: "/objects?offset=3", method: .get, headers: [.range: "items=0-4"])
                #expect(conflict.status == .badRequest)
                let malformed = try await client.execute(
                    uri: "/objects?pageSize=5", method: .get, headers: [.range: "bytes=0-4"])
                #expect(malformed.status == .ok)
            }
        }
    }

    @Test func etagAnswers304() async throws {
        let (body, _) = objectsBody(40)
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL)) { client, _ in
                let first = try await client.execute(uri: "/objects?pageSize=10", method: .get)
                let etag = try #require(first.header("ETag"))
                #expect(etag.hasPrefix("W/\""))
                let again = try await client.execute(
                    uri: "/objects?pageSize=10", method: .get, headers: [.ifNoneMatch: etag])
                #expect(again.status == .notModified)
                #expect(again.header("ETag") == etag)
                #expect(again.header("X-Total-Count") == "40")
                #expect(again.header("Link") == first.header("Link"))
                #expect(again.header("Cache-Status") != nil)
                let listed = try await client.execute(
                    uri: "/objects?pageSize=10", method: .get, headers: [.ifNoneMatch: "\"x\", \(etag)"])
                #expect(listed.status == .notModified)
                let other = try await client.execute(
                    uri: "/objects?pageSize=11", method: .get, headers: [.ifNoneMatch: etag])
                #expect(other.status == .ok)
                let meta = try await client.execute(uri: "/objects?pageSize=10&metadataOnly", method: .get)
                #expect(meta.header("ETag") != etag, "representation is part of the ETag")
            }
        }
    }
}
