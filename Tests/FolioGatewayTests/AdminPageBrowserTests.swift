import FolioTestSupport
import Foundation
import Testing

@testable import FolioGateway

/// The admin page (docs/OPERATIONS.md, "Admin page") in headless Chromium, driven by Selenium
/// (`Tests/Browser/admin_page.py` through `scripts/browser-python.sh`) against a live gateway
/// after a real fill: the route's snapshot and last fill are shown, the page refreshes itself,
/// its policy blocks nothing it needs, and the purge button asks for the admin token and purges.
@Suite("Admin page in a browser")
struct AdminPageBrowserTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var browserInstalled: Bool {
        ["/usr/bin/chromium", "/usr/bin/chromedriver"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test(
        .enabled(
            if: browserInstalled,
            "skipped: Debian's chromium and chromium-driver are not installed (.ci/run installs them)"))
    func thePageShowsSnapshotsRefreshesAndPurgesWithTheToken() async throws {
        try await withTestUpstream({ _ in .json(objectsBody(7).body) }) { upstream in
            _ = try await withFolio(AdminStateTests.yaml(upstream)) { folio in
                let first = try await folio.get("\(folio.client)/objects?pageSize=2")
                let token = try #require(try first.json.paging["snapshot"] as? String)
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/bash")
                process.currentDirectoryURL = Self.repository
                // stderr with stdout, so a failed check is in the test's message.
                process.arguments = [
                    "-c", #""$0" "$@" 2>&1"#, "scripts/browser-python.sh", "Tests/Browser/admin_page.py",
                    "--url", "\(folio.admin)/", "--route", "objects", "--snapshot", token,
                    "--token", AdminStateTests.token, "--purge",
                ]
                let (status, output) = try await ChildProcess.output(of: process)
                let text = String(decoding: output, as: UTF8.self)
                #expect(status == 0, "\(text)")
                #expect(text.contains("ok: objects shown, refreshed, purged"))
                // The purge the browser made is the gateway's: the list is retained now.
                let state = try await folio.get("\(folio.admin)/state").json
                let snapshots = try AdminStateTests.route(state, "objects")["snapshots"] as? [[String: Any]]
                #expect(snapshots?.first?["state"] as? String == "retained")
            }
        }
    }
}
