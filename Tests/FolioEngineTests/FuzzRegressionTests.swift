import Testing

@testable import FolioEngine

/// Inputs the fuzz targets (Fuzz/, `scripts/fuzz.sh`) found to break a property, kept as
/// regression tests. Each names its target and what went wrong.
@Suite struct FuzzRegressionTests {
    /// FuzzQuery: `&` and `=` followed by a combining mark formed one `Character` with it, so
    /// splitting by `Character` missed the boundary. Folio read one parameter where its own
    /// (percent-encoded) links, and every upstream, read two.
    @Test(arguments: [
        ("a=1&\u{301}b=2", [("a", "1"), ("\u{301}b", "2")]),
        ("pageSize=2&\u{654}x", [("pageSize", "2"), ("\u{654}x", "")]),
        ("k=\u{301}&=\u{301}", [("k", "\u{301}"), ("", "\u{301}")]),
        ("\u{301}=\u{301}=", [("\u{301}", "\u{301}=")]),
    ])
    func combiningMarksDoNotHideSeparators(_ query: String, _ expected: [(String, String)]) throws {
        let parameters = try QueryString.parse(query[...])
        #expect(parameters.map(\.key) == expected.map(\.0))
        #expect(parameters.map(\.value) == expected.map(\.1))
        // Raw pieces are exactly the text between the `&` bytes.
        let pieces = query.utf8.split(separator: UInt8(ascii: "&")).map { String(Substring($0)) }
        #expect(parameters.map { String($0.raw) } == pieces)
    }

    /// The input FuzzQuery reported (a kept parameter holding `&` + U+0654): the link Folio
    /// writes for the request must be read back as the same request.
    @Test func linksOfTheFoundQueryRoundTrip() throws {
        let bytes: [UInt8] = [
            0x35, 0x17, 0x26, 0xD9, 0x94, 0x96, 0x91, 0xFF, 0xFF, 0xFF, 0xFF, 0x70, 0x30, 0xBF, 0xCC, 0xD9,
            0x94, 0x96, 0x91, 0xFF, 0xFF, 0xFF, 0xFF, 0x31, 0x26, 0x61,
        ]
        let query = String(decoding: bytes, as: UTF8.self)
        let options = PagingOptions()
        let request = try ListRequest.interpret(try QueryString.parse(query[...]), options: options, rangeHeader: nil)
        let links = LinkBuilder(
            base: "/objects", kept: request.kept, names: options.names, style: request.style,
            pageSize: request.pageSize, pageBase: options.pageBase, snapshot: "s1")
        let url = links.url(offset: 0)
        let linkQuery = url[url.index(after: try #require(url.firstIndex(of: "?")))...]
        let linked = try ListRequest.interpret(try QueryString.parse(linkQuery), options: options, rangeHeader: nil)
        #expect(linked.kept.map(\.key) == request.kept.map(\.key))
        #expect(linked.kept.map(\.value) == request.kept.map(\.value))
        #expect(request.kept.count == 3)
    }
}
