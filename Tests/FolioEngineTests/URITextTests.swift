import Testing

@testable import FolioEngine

/// RFC 3986 6.2.2 normalization of escapes, which keeps what a URI means.
@Suite struct URITextTests {
    @Test(arguments: [
        ("tenant=a", "tenant=a"),
        ("tenant=%61", "tenant=a"),
        ("%74enant=%7E%2d%2E%5F", "tenant=~-._"),
        ("q=%c3%a9", "q=%C3%A9"),
        ("q=a%2bb", "q=a%2Bb"),
        ("q=a+b", "q=a+b"),
        ("q=%26%3D", "q=%26%3D"),
        ("q=%zz%4", "q=%zz%4"),
        ("q=100%", "q=100%"),
        ("q=%", "q=%"),
    ])
    func escapesAreNormalizedWithoutChangingMeaning(raw: String, normalized: String) {
        #expect(URIText.normalizingEscapes(Substring(raw)) == normalized)
    }
}
