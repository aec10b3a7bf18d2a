import Foundation
import Testing

@testable import FolioGateway

/// The dashboard and alerting rules in `config/observability/` name only metrics a live
/// gateway exports: a renamed metric must not leave an empty panel or an alert that never fires.
@Suite("config/observability names only exported metrics")
struct ObservabilityFilesTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("config/observability")

    /// Every `folio_…` metric name in a file's text (PromQL inside JSON or YAML).
    static func metricNames(in file: String) throws -> Set<String> {
        let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
        let regex = try Regex(#"folio_[a-z_]+"#)
        return Set(text.matches(of: regex).map { String(text[$0.range]) })
    }

    @Test(arguments: ["folio-dashboard.json", "folio-alerts.yaml"])
    func everyNamedMetricIsExported(file: String) async throws {
        let named = try Self.metricNames(in: file)
        #expect(named.count >= 5, "\(file) names too few metrics: \(named.sorted())")
        let (body, _) = objectsBody(3)
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            _ = try await withFolio(gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true)) { folio in
                #expect(try await folio.get("\(folio.client)/objects").status == 200)
                let exported = try await folio.metrics().names
                let missing = named.subtracting(exported)
                #expect(missing.isEmpty, "\(file) names metrics /metrics does not export: \(missing.sorted())")
            }
        }
    }

    @Test func dashboardIsValidJSONWithPanels() throws {
        let data = try Data(contentsOf: Self.directory.appendingPathComponent("folio-dashboard.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let panels = try #require(object["panels"] as? [[String: Any]])
        #expect(panels.count >= 8)
        for panel in panels {
            let targets = try #require(
                panel["targets"] as? [[String: Any]], "panel without targets: \(panel["title"] ?? "")")
            #expect(!targets.isEmpty)
        }
    }
}
