import FolioConfiguration
import FolioEngine
import FolioTestSupport
import Foundation
import Testing

/// `dialect` in the config (docs/CONFIG.md; docs/API.md, "Dialects"): read per route and in `defaults`, an unknown one
/// reported at its key, and each dialect's names reserved like Folio's own parameters.
@Suite struct DialectConfigurationTests {
    static let cases: [ValidationCase] = [
        .init(
            yaml: ValidationCase.route("dialect: graphql"), path: "routes[0].dialect",
            message:
                "unknown dialect 'graphql'; expected one of folio, drf, hal, jsonserver, simplerest, jsonapi, odata, laravel, strapi, stripe",
            at: "dialect"),
        .init(
            yaml: "defaults:\n  dialect: DRF\n" + ConfigFixture.minimal, path: "defaults.dialect",
            message: "unknown dialect 'DRF'", at: "dialect"),
        .init(
            yaml: ValidationCase.route("dialect: jsonserver", "filterable: [_page]"), path: "routes[0].filterable[0]",
            message: "one of Folio's own parameters", at: "_page"),
        .init(
            yaml: ValidationCase.route("dialect: simplerest", "forwardQuery: [filter]"),
            path: "routes[0].forwardQuery[0]", message: "one of Folio's own parameters", at: "filter]"),
        .init(
            yaml: ValidationCase.route("dialect: drf", "groupable: [page_size]"), path: "routes[0].groupable[0]",
            message: "one of Folio's own parameters", at: "page_size"),
        .init(
            yaml: ValidationCase.route("dialect: hal", "filterable: [size]"), path: "routes[0].filterable[0]",
            message: "one of Folio's own parameters", at: "size]"),
        // Dialects that name items by id need idField (docs/CONFIG.md, "`dialect`").
        .init(
            yaml: ValidationCase.route("dialect: jsonapi"), path: "routes[0].dialect",
            message: "dialect 'jsonapi' names each item by its id: set idField", at: "dialect: jsonapi"),
        .init(
            yaml: ValidationCase.route("dialect: stripe", "idField: null"), path: "routes[0].dialect",
            message: "dialect 'stripe' names each item by its id: set idField", at: "dialect: stripe"),
        .init(
            yaml: ValidationCase.route("dialect: strapi", "filterable: ['pagination[page]']", "idField: id"),
            path: "routes[0].filterable[0]", message: "one of Folio's own parameters", at: "'pagination[page]'"),
        .init(
            yaml: ValidationCase.route("dialect: odata", "forwardQuery: [$top]"), path: "routes[0].forwardQuery[0]",
            message: "one of Folio's own parameters", at: "$top"),
        .init(
            yaml: ValidationCase.route("dialect: jsonapi", "idField: id", "type: ''"), path: "routes[0].type",
            message: "type must not be empty", at: "type"),
    ]

    @Test(arguments: cases) func rule(_ c: ValidationCase) {
        c.expectReportedOnce()
    }

    @Test func routesInheritTheDefaultDialectAndMayOverrideIt() throws {
        let yaml = """
            defaults:
              dialect: hal
            routes:
              - { name: a, path: /a, upstream: "http://u/a" }
              - { name: b, path: /b, upstream: "http://u/b", dialect: simplerest }
              - { name: c, path: /c, upstream: "http://u/c", dialect: folio, filterable: [size] }
            """
        let config = try ConfigurationLoader.parse(yaml: yaml, file: "f")
        #expect(config.routes.map(\.paging.dialect.name) == ["hal", "simplerest", "folio"])
        // Folio's names are ordinary in another dialect, and a dialect's in Folio's.
        let ok = ValidationCase.route("dialect: hal", "filterable: [pageSize, offset]")
        #expect(ConfigFixture.problems(ok).isEmpty)
        let named = try ConfigurationLoader.parse(
            yaml: ValidationCase.route("dialect: jsonapi", "idField: /meta/id", "type: articles"), file: "f")
        #expect(named.routes[0].type == "articles" && named.routes[0].idField?.text == "/meta/id")
        #expect(
            try ConfigurationLoader.parse(yaml: ValidationCase.route("dialect: stripe", "idField: id"), file: "f")
                .routes[0].type == nil)
    }
}
