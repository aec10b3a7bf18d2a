import FolioEngine
import Testing

@testable import FolioGateway

/// RFC 8288 `Link` parsing as the crawl uses it.
@Suite struct CrawlLinkHeaderTests {
    @Test func singleNextLink() {
        let header = LinkHeader([#"</items?page=2>; rel="next""#])
        #expect(header.links == [.init(target: "/items?page=2", parameters: [.init(name: "rel", value: "next")])])
        #expect(header.next == "/items?page=2")
    }

    @Test func severalLinksInOneFieldAndAcrossFields() {
        let header = LinkHeader([
            #"<https://x.test/p1>; rel="first", <https://x.test/p3>; rel="prev""#,
            #"<https://x.test/p5>; rel=last, <https://x.test/p4>; rel="next""#,
        ])
        #expect(
            header.links.map(\.target) == [
                "https://x.test/p1", "https://x.test/p3", "https://x.test/p5", "https://x.test/p4",
            ])
        #expect(header.links.map(\.relations) == [["first"], ["prev"], ["last"], ["next"]])
        #expect(header.next == "https://x.test/p4")
    }

    @Test func quotedValuesMayHoldCommasSemicolonsAndEscapes() {
        let header = LinkHeader([
            #"</a>; title="one, two; three \"quoted\" \\ done"; rel="prev", </b>; rel="next"; title="x,y""#
        ])
        #expect(header.links.count == 2)
        #expect(header.links[0].parameters.first { $0.name == "title" }?.value == #"one, two; three "quoted" \ done"#)
        #expect(header.links[0].relations == ["prev"])
        #expect(header.next == "/b")
        #expect(header.links[1].parameters.last?.value == "x,y")
    }

    @Test func targetsMayHoldCommasAndSemicolons() {
        let header = LinkHeader([#"</items?ids=1,2;3&page=2>; rel="next""#])
        #expect(header.next == "/items?ids=1,2;3&page=2")
    }

    @Test func relationListsAndCaseAreHandled() {
        #expect(LinkHeader([#"</last>; REL="Last NEXT""#]).next == "/last")
        #expect(LinkHeader([#"</x> ;rel = next ; type="application/json""#]).next == "/x")
        #expect(LinkHeader(["</x>;\trel=\"next\""]).next == "/x")
    }

    @Test func onlyTheFirstRelCounts() {
        let header = LinkHeader([#"</a>; rel="prev"; rel="next", </b>; rel="next""#])
        #expect(header.next == "/b")
    }

    @Test func otherRelationsAreNotNext() {
        #expect(LinkHeader([#"</a>; rel="nextpage", </b>; rel="prev next-archive""#]).next == nil)
        #expect(LinkHeader([#"</a>; title="rel=next""#]).next == nil)
        #expect(LinkHeader([]).next == nil)
        #expect(LinkHeader([""]).next == nil)
    }

    @Test func malformedLinksAreSkippedNotFatal() {
        let header = LinkHeader([
            #"garbage; rel="next", </a> junk; rel="next", <unterminated; rel="next""#,
            #"</ok>; rel="next""#,
        ])
        // `</a> junk` keeps its target but loses what follows the junk; the rest is unusable.
        #expect(header.next == "/ok")
        #expect(header.links.map(\.target) == ["/a", "/ok"])
    }

    @Test func emptyParametersAndValuelessOnesAreTolerated() {
        let header = LinkHeader([#"</a>;; ;rel="next";crossorigin"#])
        #expect(header.next == "/a")
        #expect(header.links[0].parameters.map(\.name) == ["rel", "crossorigin"])
    }
}
