import Foundation
import HummingbirdTesting
import Testing

@testable import FolioGateway

/// `?fields=` through the gateway (docs/API.md, "Requests"): the chosen members' bytes, kept in links and in
/// the ETag.
@Suite struct GatewaySparseFieldsTests {
    @Test func fieldsKeepTheChosenMembersAndTheirBytes() async throws {
        let elements = (0..<5).map { #"{"id":\#($0), "name" : "n\#($0)","tag":"t","price":1.50}"# } + ["[1]"]
        try await withTestUpstream({ _ in .json("[" + elements.joined(separator: ",") + "]") }) { upstream in
            try await withGateway(gatewayYAML(upstream: upstream.baseURL)) { client, _ in
                let sparse = try await client.execute(uri: "/objects?fields=name,id&pageSize=6", method: .get)
                #expect(sparse.status == .ok)
                #expect(
                    try rawItems(sparse.text)
                        == (0..<5).map { #"{"id":\#($0),"name" : "n\#($0)"}"# } + ["[1]"])
                let next = try #require(try (sparse.json["paging"] as? [String: Any])?["first"] as? String)
                #expect(next.contains("fields=name,id"), "links keep fields")

                let whole = try await client.execute(uri: "/objects?pageSize=6", method: .get)
                #expect(try rawItems(whole.text) == elements)
                #expect(sparse.header("ETag") != nil && sparse.header("ETag") != whole.header("ETag"))

                for bad in ["fields=", "fields=id,,name", "fields=,id"] {
                    let response = try await client.execute(uri: "/objects?\(bad)", method: .get)
                    #expect(response.status == .badRequest, "\(bad)")
                }
                #expect(upstream.requestCount == 1)
            }
        }
    }
}
