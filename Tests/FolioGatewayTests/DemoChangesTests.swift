import Foundation
import HummingbirdTesting
import Testing

@testable import FolioGateway

/// `folio demo` shows changes (docs/API.md, "Changes between snapshots"): its upstream changes
/// its list on `POST /objects/change`, and the demo's routes answer `since`.
@Suite struct DemoChangesTests {
    @Test func everyVersionKeepsTheCountAndUniqueIds() throws {
        for version in [0, 1, 2, 25] {
            let items = DemoData.objects(version: version)
            #expect(items.count == DemoData.count)
            let ids = try items.map { item in
                try #require(
                    (try JSONSerialization.jsonObject(with: Data(item.utf8)) as? [String: Any])?["id"] as? Int)
            }
            #expect(Set(ids).count == ids.count, "version \(version)")
        }
        #expect(DemoData.objects(version: 0) == (0..<DemoData.count).map { DemoData.object($0) })
    }

    @Test func aChangeUpstreamIsASincePatch() async throws {
        // Fresh for no time: the `since` request refills the list.
        let noTTL: @Sendable (String) -> String = {
            $0.replacingOccurrences(of: "cache: { ttl: 5s }", with: "cache: { ttl: 0s, staleWhileRevalidate: 0s }")
        }
        try await withDemoGateway(editing: noTTL) { client, upstream in
            let page = try await client.execute(uri: "/objects?pageSize=1", method: .get)
            let token = try #require(page.json.paging["snapshot"] as? String)
            let changed = try await upstream.execute(uri: "/objects/change", method: .post)
            #expect(changed.text == #"{"version":1}"#)
            let answer = try await client.execute(uri: "/objects?since=\(token)", method: .get)
            #expect(answer.status == .ok, "\(answer.text)")
            let changes = try #require(try answer.json["changes"] as? [String: Any])
            #expect(changes["count"] as? Int == DemoData.count)
            #expect(changes["previousCount"] as? Int == DemoData.count)
            let counts = ChangesCheck.counts(try #require(try answer.json["patch"] as? [[String: Any]]))
            #expect(counts["remove"] == 1 && counts["add"] == 1 && counts["replace"] == 1, "\(counts)")
        }
    }
}
