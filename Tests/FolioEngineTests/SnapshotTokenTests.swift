import Testing

@testable import FolioEngine

@Suite struct SnapshotTokenTests {
    /// Expected values computed independently with Python 3:
    ///
    ///     msg = json.dumps(sort, separators=(',', ':'), ensure_ascii=False).encode() + b"\n" + b",".join(elements)
    ///     base64.urlsafe_b64encode(hashlib.sha256(msg).digest()[:12]).rstrip(b"=")
    @Test func matchesAnIndependentSHA256() {
        let elements = [#"{"id":1}"#, #""x""#, "2"].map { Array($0.utf8) }
        #expect(SnapshotToken.compute(sort: ["name", "-price"], elements: elements) == "pwo3djZzlnW2r7BL")
        #expect(SnapshotToken.compute(sort: [], elements: []) == "N1F-Xz3GaBn2H1p7")
        #expect(
            SnapshotToken.compute(sort: ["a\"b", "c\\d", "e\nf", "\u{01}", "é"], elements: [Array("[]".utf8)])
                == "28eadPsutWOHLeqi")
    }

    /// Python's `json.dumps(sort, separators=(',', ':'), ensure_ascii=False)` gives the same text.
    @Test func sortPrefixIsCompactJSON() {
        #expect(SnapshotToken.sortPrefix([]) == Array("[]".utf8))
        #expect(SnapshotToken.sortPrefix(["name", "-price"]) == Array(#"["name","-price"]"#.utf8))
        #expect(
            SnapshotToken.sortPrefix(["a\"b", "c\\d", "e\nf", "\u{01}", "é", "\t\r\u{08}\u{0C}"])
                == Array(#"["a\"b","c\\d","e\nf","\u0001","é","\t\r\b\f"]"#.utf8))
    }

    @Test func tokenIs16Base64URLCharacters() {
        var gen = RandomJSON(seed: 9)
        for _ in 0..<50 {
            let token = SnapshotToken.compute(sort: [], elements: gen.elements(3))
            #expect(token.utf8.count == 16)
            #expect(token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        }
    }

    @Test func base64URLMatchesRFC4648Vectors() {
        // RFC 4648 section 10 vectors (the url alphabet differs only in '+' and '/').
        for (input, output) in [
            ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
        ] {
            #expect(SnapshotToken.base64URL(Array(input.utf8)) == output)
        }
        #expect(SnapshotToken.base64URL([0xFB, 0xFF, 0xBF]) == "-_-_")
    }

    @Test func orderAndBoundariesMatter() {
        let ab = SnapshotToken.compute(sort: [], elements: [[0x61], [0x62]])
        #expect(ab != SnapshotToken.compute(sort: [], elements: [[0x62], [0x61]]))
        // The token hashes the elements joined by ",": this split is indistinguishable by design.
        #expect(ab == SnapshotToken.compute(sort: [], elements: [[0x61, 0x2C, 0x62]]))
        #expect(ab != SnapshotToken.compute(sort: ["a"], elements: [[0x61], [0x62]]))
    }
}
