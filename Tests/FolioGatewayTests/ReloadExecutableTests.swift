import AsyncHTTPClient
import Foundation
import Testing

@testable import FolioGateway

/// SIGHUP against the built `folio` executable.
@Suite("Reload on SIGHUP (executable)")
struct ReloadExecutableTests {
    static func yaml(upstream: String, extraRoute: Bool) -> String {
        var text = """
            server:
              listen: 127.0.0.1:0
              admin: 127.0.0.1:0
            routes:
              - name: objects
                path: /objects
                upstream: \(upstream)/objects

            """
        if extraRoute {
            text += """
                  - name: more
                    path: /more
                    upstream: \(upstream)/more

                """
        }
        return text
    }

    @Test func sighupServesANewRouteAndABrokenFileKeepsTheOld() async throws {
        try await withTestUpstream({ request in .json(request.path == "/more" ? "[5,6]" : "[1]") }) { upstream in
            let folio = try FolioProcess(yaml: Self.yaml(upstream: upstream.baseURL, extraRoute: false))
            defer { folio.stop() }
            let (client, _) = try await folio.ports()
            try await withHTTPClient { http in
                #expect(try await http.answer("http://127.0.0.1:\(client)/more").status == 404)

                try folio.rewriteConfig(Self.yaml(upstream: upstream.baseURL, extraRoute: true))
                folio.signal(SIGHUP)
                try await folio.message("config reloaded")
                let more = try await http.answer("http://127.0.0.1:\(client)/more")
                #expect(more.status == 200)
                #expect(try more.json.paging["totalCount"] as? Int == 2)

                try folio.rewriteConfig("routes: [ this is not yaml")
                folio.signal(SIGHUP)
                try await folio.waitForLog("reload failed") {
                    ($0["message"] as? String)?.hasPrefix("config reload failed") == true
                }
                #expect(try await http.answer("http://127.0.0.1:\(client)/more").status == 200)
                #expect(try await http.answer("http://127.0.0.1:\(client)/objects").status == 200)

                folio.signal(SIGTERM)
                #expect(try await folio.exitStatus() == 0)
            }
        }
    }
}
