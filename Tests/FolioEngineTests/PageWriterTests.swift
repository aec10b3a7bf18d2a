import Foundation
import Testing

@testable import FolioEngine

@Suite struct PageWriterTests {
    /// A list whose elements are the given texts, laid out with junk between them.
    func list(_ elements: [String]) -> ItemList {
        var bytes: [UInt8] = Array("[ ".utf8)
        var starts: [UInt32] = []
        var ends: [UInt32] = []
        for element in elements {
            starts.append(UInt32(bytes.count))
            bytes += Array(element.utf8)
            ends.append(UInt32(bytes.count))
            bytes += Array(" ,\n".utf8)
        }
        return ItemList(bytes: bytes, starts: starts, ends: ends)
    }

    let builder = LinkBuilder(
        base: "/objects", kept: [], names: ParameterNames(), style: .offset, pageSize: 2,
        pageBase: 0, snapshot: "tok")

    @Test func envelopeIsExactBytes() {
        let items = list(["1.0", #"{"a" : "\u00e9"}"#, "[ ]", "true", "null"])
        let paging = Paging(totalCount: 5, offset: 2, pageSize: 2, pageBase: 0)
        let body = PageWriter.envelope(view: ListView(list: items), paging: paging, links: builder, itemsKey: "objects")
        let expected =
            #"{"paging":{"totalCount":5,"offset":2,"pageSize":2,"page":1,"pageCount":3,"pageBase":0,"#
            + #""hasMore":true,"snapshot":"tok","first":"/objects?pageSize=2&offset=0&snapshot=tok","#
            + #""previous":"/objects?pageSize=2&offset=0&snapshot=tok","next":"/objects?pageSize=2&offset=4&snapshot=tok","#
            + #""last":"/objects?pageSize=2&offset=4&snapshot=tok"},"objects":[[ ],true]}"#
        #expect(String(decoding: body, as: UTF8.self) == expected)
    }

    @Test func nullsForAbsentLinksAndPage() throws {
        let paging = Paging(totalCount: 0, offset: 3, pageSize: 2, pageBase: 0)
        let body = PageWriter.metadata(paging: paging, links: builder)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        let meta = try #require(object["paging"] as? [String: Any])
        #expect(meta["page"] is NSNull)
        #expect(meta["previous"] is NSNull)
        #expect(meta["next"] is NSNull)
        #expect(meta["hasMore"] as? Bool == false)
        #expect(meta["first"] as? String == "/objects?pageSize=2&offset=0&snapshot=tok")
        #expect(object.count == 1)
        // Keys in the order of docs/API.md, "The page".
        let keys = try RawJSON.members(body, objectAt: try RawJSON.members(body, objectAt: 0)[0].value.lowerBound)
            .map { String(decoding: $0.key, as: UTF8.self) }
        #expect(
            keys == [
                "totalCount", "offset", "pageSize", "page", "pageCount", "pageBase", "hasMore", "snapshot",
                "first", "previous", "next", "last",
            ])
    }

    @Test func bareArrayFollowsTheViewOrderAndWindow() {
        let items = list(["\"a\"", "\"b\"", "\"c\"", "\"d\""])
        let view = ListView(list: items, order: [3, 1, 0, 2], window: 1..<4)
        #expect(view.count == 3)
        #expect((0..<3).map(view.elementIndex(at:)) == [1, 0, 2])
        #expect(String(decoding: PageWriter.bareArray(view: view, items: 0..<3), as: UTF8.self) == #"["b","a","c"]"#)
        #expect(String(decoding: PageWriter.bareArray(view: view, items: 1..<2), as: UTF8.self) == #"["a"]"#)
        #expect(String(decoding: PageWriter.bareArray(view: view, items: 3..<3), as: UTF8.self) == "[]")
        let plain = ListView(list: items, window: 2..<4)
        #expect(String(decoding: PageWriter.bareArray(view: plain, items: 0..<2), as: UTF8.self) == #"["c","d"]"#)
    }

    /// Escaping is checked by decoding with a real JSON parser: every string must come back intact.
    @Test(arguments: [
        "objects", "", "a\"b", "back\\slash", "line\nbreak", "\u{0}\u{1}\u{1F}\u{7F}", "tab\t\r\u{8}\u{C}", "日本 é 🎉",
        "</script>",
    ])
    func jsonStringsRoundTrip(_ text: String) throws {
        var out: [UInt8] = Array("[".utf8)
        JSONText.appendString(text, to: &out)
        out += Array("]".utf8)
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(out)) as? [String])
        #expect(decoded == [text])
        // Controls never appear raw.
        #expect(!out.contains { $0 < 0x20 })
    }

    @Test func itemsKeyAndSnapshotAreEscaped() throws {
        let odd = LinkBuilder(
            base: "/o", kept: [], names: ParameterNames(), style: .offset, pageSize: 1, pageBase: 0,
            snapshot: "t\"k")
        let items = list(["1"])
        let body = PageWriter.envelope(
            view: ListView(list: items), paging: Paging(totalCount: 1, offset: 0, pageSize: 1, pageBase: 0),
            links: odd, itemsKey: "it\"ems")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        #expect((object["it\"ems"] as? [Int]) == [1])
        #expect((object["paging"] as? [String: Any])?["snapshot"] as? String == "t\"k")
    }
}
