import Foundation
import HummingbirdTesting
import Testing

@testable import FolioGateway

/// The demo's crawled route (its built-in config over `DemoUpstream`'s Link-header pages) serves
/// the same list as the route over the one big array.
@Suite struct CrawlDemoTests {
    @Test func pagedObjectsMatchObjects() async throws {
        try await withDemoGateway { client in
            for query in [
                "pageSize=500", "pageSize=500&offset=500", "pageSize=500&offset=1000", "pageSize=7&page=3",
            ] {
                let whole = try await client.execute(uri: "/objects?\(query)", method: .get)
                let crawled = try await client.execute(uri: "/paged-objects?\(query)", method: .get)
                #expect(crawled.status == .ok)
                #expect(try crawled.json.paging["totalCount"] as? Int == DemoData.count)
                #expect(try rawItems(crawled.text) == rawItems(whole.text), "\(query)")
                // One snapshot token definition: same sort, same items, same token.
                #expect(try crawled.json.paging["snapshot"] as? String == whole.json.paging["snapshot"] as? String)
            }
        }
    }
}
