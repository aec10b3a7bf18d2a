import FolioConfiguration
import Testing

@testable import FolioGateway

/// `CompiledRoute.listVariant`: the digest in every cache key that keeps replicas on configs
/// that shape the list differently from sharing snapshots (docs/SHARED-STORE.md, "Config changes, reloads and
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
        "sort: [name]\nupstreamPaging: { style: page, size: 50 }\nauthorized: shared",
        "sort: [name]\nupstreamPaging: { style: page, size: 50 }\nauthorized: perCredential",
        "sort: [name]\nupstreamPaging: { style: page, size: 50 }\nvary: [Accept-Language]",
        "sort: [name]\nupstreamPaging: { style: nextField, size: 50 }",
        "sort: [name]\nupstreamPaging: { style: linkHeader, size: 50 }",
        "sort: [name]\nupstreamPaging: { style: page, size: 50, sizeParam: limit }",
        // The same words, moved from the crawl into the sort: each list carries its count.
        "sort: [name, paging, page]\nupstreamPaging: { style: page, size: 50 }",
    ])
    func aSettingThatShapesTheListChangesIt(_ route: String) throws {
        #expect(try Self.variant(route) != Self.variant(Self.base))
    }

    @Test(arguments: [
        "sort: [name]\nupstreamPaging: { style: page, size: 50, maxPages: 3, concurrency: 2 }",
        "sort: [name]\nupstreamPaging: { style: page, size: 50 }\npageSize: 5\nmaxPageSize: 10",
        "sort: [name]\nupstreamPaging: { style: page, size: 50 }\nsortable: [id]\nfilterable: [tag]",
        "sort: [name]\nupstreamPaging: { style: page, size: 50 }\ncache: { ttl: 5s }",
        "sort: [name]\nupstreamPaging: { style: page, size: 50 }\ndialect: drf",
        "sort: [name]\nupstreamPaging: { style: page, size: 50 }\nsectionKey: name\nsearchable: [name]",
        "sort: [name]\nupstreamPaging: { style: page, size: 50 }\nforwardQuery: [region]",
        "sort: [name]\nupstreamPaging: { style: page, size: 50 }\ncache: { snapshotRetention: 1s }",
    ])
    func anyOtherSettingKeepsIt(_ route: String) throws {
        #expect(try Self.variant(route) == Self.variant(Self.base))
    }

    /// Header names count, not their case; their order does (the key holds the values in it).
    @Test func varyNamesCountInOrderAndIgnoringCase() throws {
        let base = try Self.variant("vary: [Accept-Language, X-Tenant]")
        #expect(try Self.variant("vary: [accept-language, x-tenant]") == base)
        #expect(try Self.variant("vary: [X-Tenant, Accept-Language]") != base)
    }

    /// Sixteen hex digits that every process and every build of this version computes alike
    /// (nothing in it depends on a hashing seed): pinned, so a change of the digest is seen.
    @Test func itIsAPinnedDigest() throws {
        let variant = try Self.variant(Self.base)
        #expect(variant == Self.pinned, "digest \(variant)")
    }

    /// SHA-256 of the length-prefixed fields `items`, "", `sort`, 1, name, `authorized`, bypass,
    /// `vary`, 0, paging, page, /next, page, offset, per_page, 50, 1, NUL (checked with Python).
    static let pinned = "797e54a536444e11"
}
