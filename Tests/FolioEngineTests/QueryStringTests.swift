import Testing

@testable import FolioEngine

@Suite struct QueryStringTests {
    struct Decoded: Sendable, CustomStringConvertible {
        let query: String
        let pairs: [(String, String, Bool)]
        var description: String { query }
    }

    static let decodingCases: [Decoded] = [
        Decoded(query: "a=1&b=2", pairs: [("a", "1", true), ("b", "2", true)]),
        Decoded(query: "q=a+b", pairs: [("q", "a b", true)]),
        Decoded(query: "q=a%2Bb", pairs: [("q", "a+b", true)]),
        Decoded(query: "q=caf%C3%A9", pairs: [("q", "café", true)]),
        Decoded(query: "q=caf%c3%a9", pairs: [("q", "café", true)]),
        Decoded(query: "page%53ize=3", pairs: [("pageSize", "3", true)]),
        Decoded(query: "a+b%20c=", pairs: [("a b c", "", true)]),
        Decoded(query: "flag", pairs: [("flag", "", false)]),
        Decoded(query: "flag=", pairs: [("flag", "", true)]),
        Decoded(query: "&&a=1&&", pairs: [("a", "1", true)]),
        Decoded(query: "", pairs: []),
        Decoded(query: "a==b", pairs: [("a", "=b", true)]),
        Decoded(query: "a=%3D%26", pairs: [("a", "=&", true)]),
        Decoded(query: "k=日本", pairs: [("k", "日本", true)]),
        Decoded(query: "=v", pairs: [("", "v", true)]),
    ]

    @Test(arguments: decodingCases)
    func decodes(_ example: Decoded) throws {
        let parsed = try QueryString.parse(Substring(example.query))
        #expect(parsed.map(\.key) == example.pairs.map(\.0))
        #expect(parsed.map(\.value) == example.pairs.map(\.1))
        #expect(parsed.map(\.hasValue) == example.pairs.map(\.2))
        // raw is the piece as sent, so joining them gives back the query minus empty pieces.
        #expect(
            parsed.map(\.raw).joined(separator: "&")
                == example.query.split(separator: "&").joined(separator: "&"))
    }

    @Test(arguments: [
        "a=%zz", "a=%", "a=%4", "a=1%", "%G1=x", "a=%C3%28", "a=%FF", "a=%C3", "k%ED%A0%80=1", "a=%E2%82",
    ])
    func rejectsBadEscapesAndUTF8(_ query: String) {
        #expect {
            _ = try QueryString.parse(Substring(query))
        } throws: { error in
            let folio = error as? FolioError
            return folio?.status == 400 && folio?.code == "invalid-query"
        }
    }

    @Test func rawIsASliceOfTheInput() throws {
        let query = "pre=1&x=%41+b"
        let parsed = try QueryString.parse(query.dropFirst(0))
        #expect(parsed[1].raw == "x=%41+b")
        #expect(parsed[1].value == "A b")
    }
}
