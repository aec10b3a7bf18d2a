import Testing

@testable import FolioEngine

@Suite struct JSONPointerTests {
    @Test(arguments: [
        ("", [String]()),
        ("/", [""]),
        ("/data", ["data"]),
        ("/data/items", ["data", "items"]),
        ("/a~1b", ["a/b"]),
        ("/m~0n", ["m~n"]),
        ("/~01", ["~1"]),
        ("/~10", ["/0"]),
        ("//x/", ["", "x", ""]),
        ("/0/é 😀", ["0", "é 😀"]),
    ])
    func parses(text: String, tokens: [String]) throws {
        let pointer = try JSONPointer(text)
        #expect(pointer.tokens == tokens)
        #expect(pointer.description == text)
    }

    @Test(arguments: ["data", "a/b", "/~", "/a~2", "/~x", "/a~"])
    func rejects(text: String) {
        let error = #expect(throws: FolioError.self) { try JSONPointer(text) }
        #expect(error?.code == "invalid-json-pointer")
    }

    @Test func rootIsEmpty() throws {
        #expect(JSONPointer.root.tokens.isEmpty)
        #expect(try JSONPointer("") == JSONPointer.root)
    }

    @Test(
        arguments: [
            ("0", 0), ("7", 7), ("10", 10), ("01", nil), ("-1", nil), ("-", nil), ("", nil), ("1a", nil),
            ("99999999999999999999999", nil),
        ] as [(String, Int?)])
    func arrayIndexes(token: String, index: Int?) {
        #expect(JSONPointer.arrayIndex(token) == index)
    }
}
