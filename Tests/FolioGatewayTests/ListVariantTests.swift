import FolioConfiguration
import Testing

@testable import FolioGateway

/// `CompiledRoute.listVariant`: the digest in every cache key that keeps replicas on configs
/// that shape the list differently from sharing snapshots (README, "Config changes, reloads and
/// rolling deploys"), and lets every other change keep sharing.
@Suite("The list variant of a route")
struct ListVariantTests {
    static let base = "sort: [name]\nupstreamPaging: { style: page, size: 50 }"

    static func variant(_ route: String) throws -> String {
        let configuration = try ConfigurationLoader.parse(
            yaml: gatewayYAML(upstream: "http://upstream.test/objects", route: route), file: "test.yaml")
        return CompiledRoute.listVariant(configuration.routes[0])
    }

    @Test(arguments: [
        "sort: [\"-name\"]\nupstreamPaging: { style: page, size: 50 }",
        "sort: [name, id]\nupstreamPaging: { style: page, size: 50 }",
        "sort: []\nupstreamPaging: { style: page, size: 50 }",
        "items: /objects\nsort: [name]\nupstreamPaging: { style: page, size: 50 }",
        "sort: [name]\nupstreamPaging: { style: offset, size: 50 }",
        "sort: [name]\nupstreamPaging: { style: page, size: 20 }",
        "sort: [name]\nupstreamPaging: { style: page, size: 50, firstPage: 0 }",
        "sort: [name]\nupstreamPaging: { style: page, size: 50, pageParam: p }",
        "sort: [name]\nupstreamPaging: { style: page, size: 50, totalField: /total }",
        "sort: [name]",
    ])
    func aSettingThatShapesTheListChangesIt(_ route: String) throws {
        #expect(try Self.variant(route) != Self.variant(Self.base))
    }

    @Test(arguments: [
        "sort: [name]\nupstreamPaging: { style: page, size: 50 }",
        "sort: [name]\nupstreamPaging: { style: page, size: 50, maxPages: 3, concurrency: 2 }",
        "sort: [name]\nupstreamPaging: { style: page, size: 50 }\npageSize: 5\nmaxPageSize: 10",
        "sort: [name]\nupstreamPaging: { style: page, size: 50 }\nsortable: [id]\nfilterable: [tag]",
        "sort: [name]\nupstreamPaging: { style: page, size: 50 }\ncache: { ttl: 5s }",
        "sort: [name]\nupstreamPaging: { style: page, size: 50 }\ndialect: drf",
    ])
    func anyOtherSettingKeepsIt(_ route: String) throws {
        #expect(try Self.variant(route) == Self.variant(Self.base))
    }

    /// Sixteen hex digits, the same in every process (nothing in it depends on hashing seeds).
    @Test func itIsAStableDigest() throws {
        let variant = try Self.variant(Self.base)
        #expect(variant.count == 16 && variant.allSatisfy(\.isHexDigit))
        #expect(try Self.variant("sort: []") == "\(try Self.variant(""))")
    }
}
