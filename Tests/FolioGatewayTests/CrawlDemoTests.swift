import Foundation
import HummingbirdTesting
import Logging
import Testing

@testable import FolioGateway

/// The demo's crawled route (its built-in config over `DemoUpstream`'s Link-header pages) serves
/// the same list as the route over the one big array.
@Suite struct CrawlDemoTests {
    @Test func pagedObjectsMatchObjects() async throws {
        let template = DemoConfiguration.yaml
        var logger = Logger(label: "folio.test.demo")
        logger.logLevel = .critical
        let demo = DemoUpstream.application(logger: logger) { _ in }
        try await demo.test(.live) { upstreamClient in
            let port = try #require(upstreamClient.port)
            let yaml =
                template
                .replacingOccurrences(of: "http://demo-upstream", with: "http://127.0.0.1:\(port)")
                .replacingOccurrences(of: "listen: 127.0.0.1:8080", with: "listen: 127.0.0.1:0")
                .replacingOccurrences(of: "admin: 127.0.0.1:0", with: "admin: null")
            try await withGateway(yaml) { client, _ in
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
}
