import FolioConfiguration
import FolioEngine
import FolioTestSupport
import Testing

/// `routes[].idField` (docs/CONFIG.md, "routes"): read like the other field keys.
@Suite("idField")
struct IDFieldConfigurationTests {
    @Test("absent or null: no idField")
    func absent() throws {
        for yaml in [ConfigFixture.minimal, ValidationCase.route("idField: null"), ValidationCase.route("idField: ~")] {
            let config = try ConfigurationLoader.parse(yaml: yaml, file: "f")
            #expect(config.routes[0].idField == nil, "\(yaml)")
        }
    }

    @Test(
        "a member name or a JSON Pointer",
        arguments: [
            ("id", "id", ["id"]), ("/id", "/id", ["id"]), ("'/meta/id'", "/meta/id", ["meta", "id"]),
            ("'/a~1b'", "/a~1b", ["a/b"]), ("sku code", "sku code", ["sku code"]),
        ])
    func field(_ value: String, text: String, tokens: [String]) throws {
        let config = try ConfigurationLoader.parse(yaml: ValidationCase.route("idField: \(value)"), file: "f")
        let idField = try #require(config.routes[0].idField)
        #expect(idField.text == text)
        // Equal to the pointer of the same tokens: `id` and `/id` are one field.
        #expect(idField == (try FieldPath(JSONPointer(tokens: tokens).description)))
    }

    static let cases: [ValidationCase] = [
        .init(
            yaml: ValidationCase.route("idField: '/a~2'"), path: "routes[0].idField",
            message: "is not a JSON Pointer", at: "idField"),
        .init(
            yaml: ValidationCase.route("idField: ''"), path: "routes[0].idField",
            message: "a field name cannot be empty", at: "idField"),
        .init(
            yaml: ValidationCase.route("idField: -id"), path: "routes[0].idField",
            message: "a field name cannot start with '-'", at: "idField"),
        .init(
            yaml: ValidationCase.route("idField: [id]"), path: "routes[0].idField",
            message: "expected a string, got a list", at: "idField"),
        .init(
            yaml: ValidationCase.route("idfield: id"), path: "routes[0].idfield",
            message: "unknown key 'idfield' (did you mean 'idField'?)", at: "idfield"),
    ]

    @Test("each problem is reported once, at the key", arguments: cases)
    func rule(_ c: ValidationCase) {
        c.expectReportedOnce()
    }
}
