import Testing

@testable import FolioGateway

/// How the `page` and `offset` styles write their parameters into the upstream URL.
@Suite struct CrawlURLTests {
    @Test(arguments: [
        ("http://u/items", "http://u/items?page=2&size=50"),
        ("http://u/items?page=9&tag=a&size=1", "http://u/items?tag=a&page=2&size=50"),
        ("http://u/items?tag=a#frag", "http://u/items?tag=a&page=2&size=50"),
        ("http://u/items?", "http://u/items?page=2&size=50"),
        ("http://u/items?pages=1&page", "http://u/items?pages=1&page=2&size=50"),
        // A combining mark after a separator stays a separate byte: `&` still splits and `page`
        // is still replaced.
        ("http://u/items?x=\u{301}&page=7&\u{301}y=1", "http://u/items?x=\u{301}&\u{301}y=1&page=2&size=50"),
        ("http://u/items?q=?&page=1", "http://u/items?q=?&page=2&size=50"),
    ])
    func settingReplacesEarlierOccurrencesAndAppends(url: String, expected: String) {
        #expect(Crawler.setting([("page", 2), ("size", 50)], in: url) == expected)
    }
}
