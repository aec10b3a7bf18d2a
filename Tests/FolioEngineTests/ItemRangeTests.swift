import Testing

@testable import FolioEngine

@Suite struct ItemRangeTests {
    @Test(arguments: [
        ("items=50-74", 50, 74),
        ("items=0-0", 0, 0),
        ("Items=1-2", 1, 2),
        ("ITEMS=1-2", 1, 2),
        (" items=3-9 ", 3, 9),
        ("items= 3-9", 3, 9),
        ("items=3-9,", 3, 9),
        ("items=, 3-9", 3, 9),
        ("items=007-010", 7, 10),
        ("items=0-9007199254740992", 0, 9_007_199_254_740_992),
        ("items=9007199254740992-9007199254740992", 9_007_199_254_740_992, 9_007_199_254_740_992),
    ])
    func parses(_ example: (header: String, first: Int, last: Int)) {
        #expect(ItemRange.parse(example.header) == ItemRange(first: example.first, last: example.last))
    }

    @Test(arguments: [
        "", "items", "items=", "items=-", "items=-5", "items=5-", "items=5-1", "items=1-2,4-5",
        "bytes=0-4", "item=0-4", "items 0-4", "items=a-b", "items=+1-2", "items=1-+2", "items=1 - 2",
        "items=0-9007199254740993", "items=1-2-3", "items=0x1-2", "items==1-2", "=1-2",
    ])
    func ignores(_ header: String) {
        #expect(ItemRange.parse(header) == nil)
    }

    @Test func contentRange() {
        #expect(ContentRange.satisfied(first: 50, last: 74, total: 1337) == "items 50-74/1337")
        #expect(ContentRange.unsatisfied(total: 1337) == "items */1337")
        let error = FolioError.rangeNotSatisfiable(totalCount: 9)
        #expect(error.status == 416)
        #expect(error.headers == [FolioError.HeaderField("Content-Range", "items */9")])
    }
}
