import Testing

@testable import FolioEngine

/// Bodies that are not valid JSON, or hold no array at `items`, are rejected whole and when fed
/// byte by byte.
@Suite struct ListIndexerInvalidTests {
    struct Case: CustomStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        var items = ""
        var detail: String? = nil
        var description: String { name }

        init(_ name: String, _ text: String, items: String = "", detail: String? = nil) {
            self.name = name
            bytes = Array(text.utf8)
            self.items = items
            self.detail = detail
        }

        init(_ name: String, bytes: [UInt8], detail: String? = nil) {
            self.name = name
            self.bytes = bytes
            self.detail = detail
        }
    }

    static let q = UInt8(ascii: "\"")
    static func string(_ raw: [UInt8]) -> [UInt8] { Array("[".utf8) + [q] + raw + [q] + Array("]".utf8) }

    static let cases: [Case] = [
        Case("empty", "", detail: "invalid JSON at byte 0: empty body"),
        Case("only whitespace", " \n\t\r ", detail: "unexpected end of body"),
        Case("truncated array", "[1,2", detail: "unexpected end of body"),
        Case("truncated after comma", "[1,"),
        Case("truncated string", #"["abc"#),
        Case("truncated object", #"[{"a":1"#),
        Case("truncated key", #"{"da"#, items: "/data"),
        Case("truncated literal", "[tru"),
        Case("bad literal tru", "[tru]", detail: "invalid literal, expected 'true'"),
        Case("bad literal nul", "[nul]"),
        Case("bad literal fals", "[fals ]"),
        Case("capital literal", "[True]"),
        Case("leading zero", "[01]", detail: "leading zero"),
        Case("leading zero negative", "[-01]"),
        Case("dot without digits", "[1.]", detail: "expected a digit after '.'"),
        Case("dot first", "[.5]"),
        Case("plus sign", "[+1]"),
        Case("lone minus", "[-]"),
        Case("exponent without digits", "[1e]"),
        Case("exponent sign only", "[1e+]"),
        Case("double dot", "[1.2.3]"),
        Case("hex number", "[0x1F]"),
        Case("trailing comma", "[1,2,]", detail: "expected a value"),
        Case("trailing comma in object", #"[{"a":1,}]"#),
        Case("missing comma", "[1 2]", detail: "expected ',' or ']'"),
        Case("missing comma strings", #"["a" "b"]"#),
        Case("missing colon", #"[{"a" 1}]"#, detail: "expected ':'"),
        Case("unquoted key", "[{a:1}]"),
        Case("single quotes", "['a']"),
        Case("leading comma", "[,1]"),
        Case("mismatched bracket", "[1}"),
        Case("mismatched brace", #"[{"a":1]]"#),
        Case("unescaped newline", "[\"a\nb\"]", detail: "unescaped control character"),
        Case("unescaped tab", "[\"a\tb\"]"),
        Case("unescaped nul", bytes: string([0x61, 0x00])),
        Case("bad escape x", #"["\x41"]"#, detail: "invalid escape"),
        Case("bad escape capital U", #"["\U0041"]"#),
        Case("short unicode escape", #"["\u12"]"#, detail: "expected 4 hex digits"),
        Case("non-hex unicode escape", #"["\u12g4"]"#),
        Case("utf8 lone continuation", bytes: string([0x80])),
        Case("utf8 overlong C0", bytes: string([0xC0, 0xAF])),
        Case("utf8 overlong C1", bytes: string([0xC1, 0xBF])),
        Case("utf8 overlong E0", bytes: string([0xE0, 0x80, 0xAF])),
        Case("utf8 overlong F0", bytes: string([0xF0, 0x80, 0x80, 0xAF])),
        Case("utf8 surrogate", bytes: string([0xED, 0xA0, 0x80]), detail: "invalid UTF-8"),
        Case("utf8 above U+10FFFF (F4 90)", bytes: string([0xF4, 0x90, 0x80, 0x80])),
        Case("utf8 F5 lead", bytes: string([0xF5, 0x80, 0x80, 0x80])),
        Case("utf8 FF", bytes: string([0xFF])),
        Case("utf8 truncated 2-byte", bytes: string([0xC3])),
        Case("utf8 truncated 3-byte", bytes: string([0xE4, 0xB8])),
        Case("utf8 truncated 4-byte", bytes: string([0xF0, 0x9F, 0x98])),
        Case("utf8 bad continuation", bytes: string([0xC3, 0x28])),
        Case("utf8 bad third byte", bytes: string([0xE4, 0xB8, 0x41])),
        Case("non-ASCII outside strings", bytes: Array("[1,".utf8) + [0xC3, 0xA9] + Array("]".utf8)),
        Case("byte order mark twice", bytes: [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("[]".utf8)),
        Case("broken byte order mark", bytes: [0xEF, 0xBB] + Array("[]".utf8)),
        Case("trailing garbage", "[1] x", detail: "unexpected data after the JSON value"),
        Case("two values", "[1][2]"),
        Case("trailing comma after document", "[1],"),
        Case("NaN", "[NaN]"),
        Case("comment", "[1 /* c */]"),
        Case("root object at root pointer", #"{"a":[1]}"#, detail: "no array at items pointer '': found object"),
        Case("root string at root pointer", #""abc""#, detail: "found string"),
        Case("root number at root pointer", "42", detail: "found number"),
        Case(
            "object at items", #"{"data":{"a":1}}"#, items: "/data",
            detail: "no array at items pointer '/data': found object"),
        Case("null at items", #"{"data":null}"#, items: "/data", detail: "found null"),
        Case(
            "missing member", #"{"dat":[1],"x":{"data":[2]}}"#, items: "/data",
            detail: "no array at items pointer '/data': member missing"),
        Case("missing nested member", #"{"data":{"item":[1]}}"#, items: "/data/items", detail: "member missing"),
        Case("scalar on the path", #"{"data":"x"}"#, items: "/data/items", detail: "found string at '/data'"),
        Case("index out of range", #"{"r":[[1]]}"#, items: "/r/1", detail: "element missing"),
        Case("non-index token on array", #"{"r":[[1]]}"#, items: "/r/x"),
        Case("first duplicate wins", #"{"data":{"a":1},"data":[1]}"#, items: "/data", detail: "found object"),
        Case("array at root for member pointer", "[[1]]", items: "/data"),
        Case("invalid JSON after the items array", #"{"data":[1],"x":tru}"#, items: "/data"),
    ]

    static func check(_ testCase: Case, chunkLengths: [Int]) {
        do {
            let result = try indexOne(testCase.bytes, items: JSONPointer(testCase.items), chunkLengths: chunkLengths)
            Issue.record("accepted \(result.list.count) items")
        } catch {
            #expect(error.code == "bad-upstream-body")
            if let detail = testCase.detail {
                #expect(error.detail.contains(detail), "detail was: \(error.detail)")
            }
        }
    }

    @Test(arguments: cases)
    func rejectedWhole(_ testCase: Case) {
        Self.check(testCase, chunkLengths: [Int.max])
    }

    @Test(arguments: cases)
    func rejectedByteByByte(_ testCase: Case) {
        Self.check(testCase, chunkLengths: [1])
    }

    @Test func errorNamesTheOffset() throws {
        let error = #expect(throws: FolioError.self) { try indexOne(Array("[1,2 3]".utf8)) }
        #expect(error?.detail == "invalid JSON at byte 5: expected ',' or ']'")
    }

    @Test func offsetsCountFromTheBodyStartInACrawl() throws {
        var indexer = ListIndexer(items: .root, limits: IndexLimits(), sort: [])
        try indexer.append(Array("[1,2]".utf8))
        _ = try indexer.endBody()
        let error = #expect(throws: FolioError.self) { try indexer.append(Array("[x]".utf8)) }
        #expect(error?.detail == "invalid JSON at byte 1: expected a value or ']'")
    }

    @Test func aFailedIndexerStaysFailed() throws {
        var indexer = ListIndexer(items: .root, limits: IndexLimits(), sort: [])
        #expect(throws: FolioError.self) { try indexer.append(Array("[}".utf8)) }
        #expect(throws: FolioError.self) { try indexer.append(Array("]".utf8)) }
        #expect(throws: FolioError.self) { try indexer.endBody() }
        do {
            _ = try indexer.finish()
            Issue.record("finish succeeded after a failure")
        } catch {
            #expect(error.code == "bad-upstream-body")
        }
    }

    @Test func endingAnIncompleteBodyFails() throws {
        var indexer = ListIndexer(items: .root, limits: IndexLimits(), sort: [])
        try indexer.append(Array("[1".utf8))
        #expect(throws: FolioError.self) { try indexer.endBody() }
    }
}
