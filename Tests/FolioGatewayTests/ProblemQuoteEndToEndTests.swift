import Testing

@testable import FolioGateway

/// A problem quotes at most 200 bytes of what the client sent, through the gateway
/// (docs/API.md, "Errors"; issue 39): `beginsWith`, `sort` and `groupBy` echoed a whole 70 KB
/// value while other parameters were cut.
@Suite struct ProblemQuoteEndToEndTests {
    static let huge = String(repeating: "x", count: 70_000)

    /// The longest run of `x` in `text`.
    static func longestQuote(_ text: String) -> Int {
        text.split(whereSeparator: { $0 != "x" }).map(\.count).max() ?? 0
    }

    @Test(arguments: [
        "/objects?beginsWith=" + huge,
        "/objects?sort=" + huge,
        "/objects?sort=id,," + huge,
        "/objects?sort=id,id," + huge,
        "/objects?groupBy=" + huge + "&metadataOnly",
        "/objects?tag[" + huge + "]=1",
        "/objects?fields=" + huge + ",",
        "/objects?pageSize=" + huge,
        "/" + huge,
    ])
    func aHugeValueIsQuotedInAtMost200Bytes(_ uri: String) async throws {
        try await withTestUpstream(HardeningHostileClientTests.handler) { upstream in
            let yaml = HardeningHostileClientTests.yaml(upstream.baseURL, top: "limits:\n  maxURLBytes: 100KiB")
            try await withGateway(yaml) { client, _ in
                let response = try await client.execute(uri: uri, method: .get)
                let detail = try checkProblem(response, status: uri.hasPrefix("/objects") ? 400 : 404)
                #expect(Self.longestQuote(detail) > 0, "the detail quotes the value: \(detail)")
                #expect(Self.longestQuote(detail) <= 200, "\(detail.prefix(300))")
                #expect(response.body.readableBytes <= 1024)
            }
        }
    }
}
