import HTTPTypes
import Testing

@testable import FolioGateway

/// `CORSRules.appendRouteFields`, which kept answers use, against `decorate`, which every
/// other answer uses: the same fields, or a refusal when a kept field must change.
@Suite("CORS fields appended to kept answers")
struct CORSRulesTests {
    static let kept: HTTPFields = [
        .link: "</objects?offset=0>; rel=\"first\"", .vary: "Accept-Encoding", .contentType: "application/json",
    ]

    @Test(arguments: [[], ["*"], ["https://app.example"], ["https://app.example", "*"]])
    func appendedFieldsAreWhatDecorateWouldAdd(allowed: [String]) {
        for origin in [nil, "https://app.example", "https://other.example"] {
            var decorated = Self.kept
            CORSRules.decorate(&decorated, origin: origin, allowed: allowed, routeAnswer: true)
            var added: [HTTPField] = []
            let appended = CORSRules.appendRouteFields(to: &added, origin: origin, allowed: allowed)
            let specific = !allowed.isEmpty && !allowed.contains("*")
            #expect(appended == !specific, "\(allowed) \(origin ?? "no origin")")
            if appended {
                var fields = Self.kept
                fields.append(contentsOf: added)
                #expect(fields == decorated, "\(allowed) \(origin ?? "no origin")")
            } else {
                #expect(added.isEmpty)
                #expect(decorated[.vary] == "Accept-Encoding, Origin")
            }
        }
    }
}
