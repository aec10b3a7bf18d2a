import FolioEngine
import Foundation
import HTTPTypes
import HummingbirdTesting
import Synchronization
import Testing

@testable import FolioGateway

/// docs/API.md, "Changes between snapshots": `?since=TOKEN` against a real upstream whose list
/// changes, each patch checked against walking both snapshots' pages.
@Suite struct GatewayChangesTests {
    /// A list the test changes between requests; every request refills it (ttl 0).
    final class ChangingList: Sendable {
        let items: Mutex<[String]>
        /// When the upstream served the list (`served`).
        let fetches = Mutex<[ContinuousClock.Instant]>([])
        init(_ items: [String]) { self.items = Mutex(items) }
        var body: String { "[" + items.withLock { $0 }.joined(separator: ",") + "]" }

        /// The body, noting the fetch.
        func served() -> String {
            fetches.withLock { $0.append(.now) }
            return body
        }

        /// The shortest time between two fetches: with one refresh per freshness period, about
        /// the list's ttl; two refreshes of one change would be milliseconds apart.
        var closestFetches: Duration {
            let times = fetches.withLock { $0 }
            return zip(times, times.dropFirst()).map { $1 - $0 }.min() ?? .seconds(3600)
        }
    }

    static func item(_ id: Int, price: Int, tag: String, name: String? = nil, extra: String = "") -> String {
        #"{"id":\#(id),"name":"\#(name ?? "item \(id)")","tag":"\#(tag)","price":\#(price).50\#(extra)}"#
    }

    static let route = """
        idField: id
        sortable: [price, name]
        filterable: [tag]
        searchable: [name]
        cache: { ttl: 0s, staleWhileRevalidate: 0s, staleIfError: 0s }
        """

    static func withChangingGateway(
        _ list: ChangingList, route: String = route, _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        try await withTestUpstream({ _ in .json(list.body) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: route)) { client, _ in
                try await body(client)
            }
        }
    }

    static func token(_ client: any TestClientProtocol) async throws -> String {
        let page = try await client.execute(uri: "/objects?pageSize=1", method: .get)
        return try #require(page.json.paging["snapshot"] as? String)
    }

    /// Removals, additions, content changes and price changes (moves under `sort=price`), seen
    /// through sorts, filters, `q` and `fields`: each patch applied to the old view's pages
    /// gives the new view's, with exactly the operation counts of a minimal patch.
    @Test(arguments: [
        "", "sort=price", "sort=-price,name", "tag=a", "q=item%201", "fields=id,name", "sort=price&fields=id,price",
        "tag=b&sort=name", "price[gte]=20&sort=-price",
    ])
    func patchTurnsTheOldViewIntoTheNewOne(_ view: String) async throws {
        let list = ChangingList(
            (0..<60).map { Self.item($0, price: ($0 * 37) % 50, tag: $0 % 3 == 0 ? "a" : "b") })
        try await Self.withChangingGateway(list) { client in
            let old = try await Self.token(client)
            list.items.withLock { items in
                items.remove(at: 50)
                items.remove(at: 12)
                items.remove(at: 3)
                items.insert(Self.item(100, price: 7, tag: "a"), at: 20)
                items.append(Self.item(101, price: 44, tag: "b"))
                func at(_ id: Int) -> Int { items.firstIndex { $0.hasPrefix(#"{"id":\#(id),"#) }! }
                items[at(6)] = Self.item(6, price: 1, tag: "b", name: "renamed")  // content and place
                items[at(33)] = Self.item(33, price: (33 * 37) % 50, tag: "b", extra: #","note":"x""#)  // content
                items[at(43)] = Self.item(43, price: 49, tag: "a")  // price: moves under sort=price
                items.swapAt(at(8), at(9))  // upstream order
            }
            let separator = view.isEmpty ? "" : "&"
            let answer = try await client.execute(uri: "/objects?\(view)\(separator)since=\(old)", method: .get)
            #expect(answer.status == .ok, "\(answer.text)")
            #expect(answer.header("Content-Type") == "application/json")
            let json = try answer.json
            let changes = try #require(json["changes"] as? [String: Any])
            let new = try #require(changes["to"] as? String)
            #expect(changes["from"] as? String == old)
            #expect(new != old)
            let patch = try #require(json["patch"] as? [[String: Any]])

            let before = try await ChangesCheck.walk(client, query: view, token: old)
            let after = try await ChangesCheck.walk(client, query: view, token: new)
            #expect(changes["previousCount"] as? Int == before.count)
            #expect(changes["count"] as? Int == after.count)
            #expect(ChangesCheck.same(try ChangesCheck.apply(patch, to: before), try after.map(ChangesCheck.decode)))
            #expect(ChangesCheck.counts(patch) == (try ChangesCheck.expectedCounts(old: before, new: after)))
            // Values are the items' bytes as the pages write them (`1.50` stays `1.50`).
            for operation in patch where ["add", "replace"].contains(operation["op"] as? String) {
                let path = try #require(operation["path"] as? String)
                let index = try #require(Int(path.dropFirst()))
                #expect(answer.text.contains(#""value":\#(after[index])}"#))
            }
            #expect(answer.header("Link") == "</objects?\(view)\(separator)since=\(new)>; rel=\"next\"")
            #expect(answer.header("ETag")?.hasPrefix("W/\"\(new)-") == true)

            // The next link asks from the newest: nothing changed since.
            let again = try await client.execute(uri: "/objects?\(view)\(separator)since=\(new)", method: .get)
            #expect(again.status == .ok)
            #expect(try again.json["patch"] as? [Any] != nil)
            #expect(try (again.json["patch"] as? [Any])?.isEmpty == true)
        }
    }

    /// Ids compare by JSON value: `7` and `7.0` are one id (its item replaced), `"7"` another.
    @Test func idsCompareByValueWhateverTheirSpelling() async throws {
        let list = ChangingList([#"{"id":7,"v":1}"#, #"{"id":"7","v":2}"#, #"{"id":1e2,"v":3}"#])
        try await Self.withChangingGateway(list) { client in
            let old = try await Self.token(client)
            list.items.withLock { $0 = [#"{"id":7.0,"v":1}"#, #"{"id":"\u0037","v":2}"#, #"{"id":100,"v":4}"#] }
            let answer = try await client.execute(uri: "/objects?since=\(old)", method: .get)
            let patch = try #require(try answer.json["patch"] as? [[String: Any]])
            #expect(ChangesCheck.counts(patch) == ["remove": 0, "add": 0, "replace": 3, "move": 0], "\(answer.text)")
        }
    }

    /// A repeated id makes a list without changes: 409 naming the first offending item, as the
    /// new snapshot and as the old one; its pages are served as usual.
    @Test func repeatedIdsAre409WithTheFirstOffendingIndex() async throws {
        let list = ChangingList((0..<6).map { Self.item($0, price: $0, tag: "a") })
        try await Self.withChangingGateway(list) { client in
            let good = try await Self.token(client)
            list.items.withLock { $0[4] = Self.item(1, price: 9, tag: "a") }
            let conflict = try await client.execute(uri: "/objects?since=\(good)", method: .get)
            #expect(conflict.status == .conflict)
            #expect(try problemCode(conflict) == "ids-not-unique")
            #expect(try (conflict.json["detail"] as? String)?.contains("item 4 repeats the id of item 1") == true)
            let page = try await client.execute(uri: "/objects", method: .get)
            #expect(page.status == .ok)
            let bad = try #require(page.json.paging["snapshot"] as? String)
            // The bad list as the old snapshot: 409 too.
            list.items.withLock { $0[4] = Self.item(4, price: 4, tag: "a") }
            let old = try await client.execute(uri: "/objects?since=\(bad)", method: .get)
            #expect(old.status == .conflict)
        }
    }

    @Test func anItemWithoutAnIdIs409() async throws {
        let list = ChangingList([#"{"id":1}"#, #"{"id":2}"#, #"{"id":null}"#])
        try await Self.withChangingGateway(list) { client in
            let answer = try await client.execute(uri: "/objects?since=AAAAAAAAAAAAAAAA", method: .get)
            #expect(answer.status == .conflict, "409 whatever the token")
            #expect(try (answer.json["detail"] as? String)?.contains("item 2 has no string or number") == true)
        }
    }

    @Test func anUnknownTokenIs410WithTheFirstPage() async throws {
        let list = ChangingList((0..<3).map { Self.item($0, price: $0, tag: "a") })
        try await Self.withChangingGateway(list) { client in
            let current = try await Self.token(client)
            let gone = try await client.execute(uri: "/objects?sort=price&since=AAAAAAAAAAAAAAAA", method: .get)
            #expect(gone.status == .gone)
            #expect(try problemCode(gone) == "snapshot-gone")
            #expect(
                gone.header("Link") == "</objects?sort=price&pageSize=25&offset=0&snapshot=\(current)>; rel=\"first\"")
        }
    }

    @Test(arguments: [
        ("pageSize=5", "pageSize"), ("offset=5", "offset"), ("page=1", "page"), ("snapshot=X", "snapshot"),
        ("groupBy=tag&metadataOnly", "groupBy"), ("metadataOnly", "metadataOnly"),
    ])
    func sinceWithPagingOrAnotherAnswerIs400(_ extra: String, _ named: String) async throws {
        let list = ChangingList((0..<3).map { Self.item($0, price: $0, tag: "a") })
        try await Self.withChangingGateway(list, route: Self.route + "\ngroupable: [tag]") { client in
            let answer = try await client.execute(uri: "/objects?since=X&\(extra)", method: .get)
            #expect(answer.status == .badRequest)
            #expect(try problemCode(answer) == "conflicting-parameters")
            #expect(try (answer.json["detail"] as? String)?.contains(named) == true)
            let ranged = try await client.execute(
                uri: "/objects?since=X", method: .get, headers: [.range: "items=0-4"])
            #expect(ranged.status == .badRequest)
        }
    }

    @Test func sinceOnARouteWithoutIdFieldIs400() async throws {
        let list = ChangingList((0..<3).map { Self.item($0, price: $0, tag: "a") })
        try await Self.withChangingGateway(list, route: "sortable: [price]") { client in
            let answer = try await client.execute(uri: "/objects?since=X", method: .get)
            #expect(answer.status == .badRequest)
            #expect(try problemCode(answer) == "changes-unavailable")
        }
    }

    /// The ids are read once per snapshot and count in the cache's bytes.
    @Test func idsAreKeptWithTheSnapshotAndCounted() async throws {
        let list = ChangingList((0..<2000).map { Self.item($0, price: $0 % 50, tag: "a") })
        let route = "idField: id"
        try await withTestUpstream({ _ in .json(list.body) }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL, route: route)) { client, server in
                let token = try await Self.token(client)
                let before = await server.gateway.cache.statistics().store.bytes
                let answer = try await client.execute(uri: "/objects?since=\(token)", method: .get)
                #expect(answer.status == .ok)
                let key = try server.gateway.cacheKey(route: "objects", upstreamURL: upstream.baseURL)
                let snapshot = try #require(await server.gateway.cache.current(key))
                #expect(snapshot.indexes.hasItemIDs(try FieldPath("id")))
                let after = await server.gateway.cache.statistics().store.bytes
                #expect(after >= before + 2000 * 4, "the ids' hashes and table count in the bound")
            }
        }
    }
}
