import Testing

@testable import FolioEngine

/// A problem's detail quotes at most 200 bytes of an offending value (docs/API.md, "Errors";
/// issue 39): every parameter whose problem quotes what the client sent, given 70 KB of it.
@Suite struct ProblemQuoteTests {
    /// 70 KB of `x` then `€` (3 bytes each), so a cut at 200 bytes falls inside a character
    /// unless it backs up to one's start.
    static let huge = "x" + String(repeating: "€", count: 23_500)
    static let alphabet: Set<Character> = ["x", "€"]

    /// The longest run of `huge`'s characters in `text`, in bytes: the quote.
    static func longestQuote(_ text: String) -> Int {
        var longest = 0
        var run = 0
        for character in text {
            run = alphabet.contains(character) ? run + character.utf8.count : 0
            longest = max(longest, run)
        }
        return longest
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let query: String
        var dialect: Dialect = .folio
        var filterable: [String] = []
        var testDescription: String { "\(dialect.name): \(query.prefix(24))" }
    }

    static let cases: [Case] = [
        Case(query: "pageSize=" + huge),
        Case(query: "offset=" + huge),
        Case(query: "page=" + huge),
        Case(query: "fields=" + huge + ",,"),
        Case(query: "price[" + huge + "]=1", filterable: ["price"]),
        Case(query: "x=" + huge + "%"),
        Case(query: "x=" + huge + "%G0"),
        Case(query: "x=" + huge + "%C3%28"),
        Case(query: "page_size=" + huge, dialect: .drf),
        Case(query: "sort=" + huge + ",-x", dialect: .hal),
        Case(query: "_sort=a&_order=" + huge, dialect: .jsonServer),
        Case(query: "sort=" + huge, dialect: .simpleRest),
        Case(query: "filter=" + huge, dialect: .simpleRest),
        Case(query: "range=" + huge, dialect: .simpleRest),
    ]

    @Test(arguments: cases)
    func aHugeValueIsQuotedInAtMost200Bytes(_ test: Case) throws {
        let options = PagingOptions(
            defaultPageSize: 25, maxPageSize: 500, filterable: test.filterable, dialect: test.dialect)
        let error = try #require(throws: FolioError.self) {
            try ListRequest.interpret(QueryString.parse(Substring(test.query)), options: options, rangeHeader: nil)
        }
        #expect(error.status == 400)
        #expect(Self.longestQuote(error.detail) > 0, "the detail quotes the value: \(error.detail)")
        #expect(Self.longestQuote(error.detail) <= 200, "\(error.detail.prefix(300))")
        #expect(error.detail.utf8.count <= 600)
        #expect(!error.detail.contains("\u{FFFD}"), "cut inside a character")
    }

    @Test func clipCutsOnACharacterBoundary() {
        #expect(DetailText.clip("short") == "short")
        #expect(DetailText.clip(String(repeating: "a", count: 200)) == String(repeating: "a", count: 200))
        #expect(DetailText.clip(String(repeating: "a", count: 201)) == String(repeating: "a", count: 200) + "…")
        // 66 × 3 bytes fit in 200, the 67th would not.
        let euros = String(repeating: "€", count: 66)
        #expect(DetailText.clip("xx" + String(repeating: "€", count: 100)) == "xx" + euros + "…")
        #expect(DetailText.clip("x" + String(repeating: "€", count: 100)) == "x" + euros + "…")
        // One Character of many scalars (a letter and 500 combining marks) is cut too.
        let stacked = "e" + String(repeating: "\u{301}", count: 500)
        #expect(DetailText.clip(stacked).utf8.count <= 200 + "…".utf8.count)
        #expect(DetailText.clip("abcdef", limit: 3) == "abc…")
    }

    /// Every factory that quotes a client value clips it.
    @Test func theFactoriesClipWhatTheyQuote() {
        for error in [
            FolioError.duplicateParameter(Self.huge), .invalidPath(segment: Substring(Self.huge)),
            .notFound(path: Self.huge), .methodNotAllowed(Self.huge, path: Self.huge),
            .snapshotGone(token: Self.huge, first: "/objects"), .invalidRequestTarget(Self.huge),
        ] {
            #expect(Self.longestQuote(error.detail) <= 200, "\(error.code)")
            #expect(Self.longestQuote(error.detail) > 0, "\(error.code)")
        }
    }
}
