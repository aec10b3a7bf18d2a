import HTTPTypes
import HummingbirdTesting
import Testing

@testable import FolioGateway

/// Checks a problem+json answer (docs/API.md, "Errors") and returns its detail: the status in the
/// head and the body agree, the `type` is Folio's URN for `code`, and the detail says something.
@discardableResult
func checkProblem(
    _ response: TestResponse, status: Int, code: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> String {
    #expect(Int(response.status.code) == status, "body: \(response.text)", sourceLocation: sourceLocation)
    #expect(response.header("Content-Type") == "application/problem+json", sourceLocation: sourceLocation)
    let problem = try response.json
    #expect(problem["status"] as? Int == status, sourceLocation: sourceLocation)
    #expect(problem["title"] is String, sourceLocation: sourceLocation)
    if let code {
        #expect(problem["type"] as? String == Problem.typePrefix + code, sourceLocation: sourceLocation)
    }
    let detail = problem["detail"] as? String ?? ""
    #expect(!detail.isEmpty, sourceLocation: sourceLocation)
    return detail
}

/// The problem code of a problem+json answer (its `type` without Folio's prefix).
func problemCode(_ response: TestResponse) throws -> String? {
    (try response.json["type"] as? String).map { String($0.dropFirst(Problem.typePrefix.count)) }
}
