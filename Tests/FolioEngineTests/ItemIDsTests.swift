import Testing

@testable import FolioEngine

/// Ids at `idField` (docs/API.md, "Changes between snapshots"): compared by JSON value, and a
/// list whose items lack unique ids names its first offending item.
@Suite struct ItemIDsTests {
    /// `{"id":X}` for each spelling, so two that are one value make the second a repeat.
    func problem(_ ids: [String]) -> ItemIDs.Problem? {
        ChangeFixture.ids(ChangeFixture.list(ids.map { #"{"id":\#($0)}"# })).problem
    }

    @Test(
        "spellings of one value are one id",
        arguments: [
            ["1", "1.0"], ["1", "1e0"], ["1", "1E+0"], ["1.0", "10e-1"], ["10", "1e1"], ["10", "1.0E+1"],
            ["-0", "0"], ["0", "0.0"], ["-0.0", "0e7"], ["-7", "-7.00"], ["0.5", "5e-1"], ["123.45", "12345e-2"],
            ["9007199254740993", "9007199254740993.0"], ["9007199254740993", "90071992547409930e-1"],
            ["123456789012345678901234567890", "1.2345678901234567890123456789e29"],
            [#""A""#, #""\u0041""#], [#""é""#, #""\u00e9""#], [#""\u00E9""#, #""\u00e9""#],
            [#""a/b""#, #""a\/b""#], [#""😀""#, #""\ud83d\ude00""#], [#""tab\t""#, #""tab\u0009""#],
            [#""\ud800""#, #""\uD800""#], [#""""#, #""""#],
        ])
    func oneValue(_ spellings: [String]) {
        #expect(problem(spellings) == ItemIDs.Problem(index: 1, repeats: 0))
    }

    @Test(
        "different values are different ids",
        arguments: [
            ["9007199254740992", "9007199254740993"], ["1", #""1""#], ["0", #""0""#], ["1", "-1"], ["1", "11"],
            ["0.1", "0.10000000000000001"], ["1e400", "1e401"], ["12345678901234567890", "12345678901234567891"],
            [#""a""#, #""A""#], [#""é""#, #""e\u0301""#], [#""\ud800""#, #""\ufffd""#], [#""a""#, #""a ""#],
            [#""""#, "0"], ["100", "1e3"],
        ])
    func differentValues(_ spellings: [String]) {
        #expect(problem(spellings) == nil)
    }

    @Test(
        "the first item without a string or number id, or repeating one",
        arguments: [
            ([#"{"id":1}"#, #"{"name":"x"}"#, #"{"id":1}"#], ItemIDs.Problem(index: 1, repeats: nil)),
            ([#"{"id":1}"#, #"{"id":2}"#, #"{"id":1.0}"#, #"{"x":0}"#], ItemIDs.Problem(index: 2, repeats: 0)),
            ([#"{"id":"a"}"#, #"{"id":"b"}"#, #"{"id":"b"}"#, #"{"id":"a"}"#], ItemIDs.Problem(index: 2, repeats: 1)),
            ([#"{"id":null}"#], ItemIDs.Problem(index: 0, repeats: nil)),
            ([#"{"id":1}"#, #"{"id":true}"#], ItemIDs.Problem(index: 1, repeats: nil)),
            ([#"{"id":{"a":1}}"#], ItemIDs.Problem(index: 0, repeats: nil)),
            ([#"{"id":[1]}"#], ItemIDs.Problem(index: 0, repeats: nil)),
            ([#"{"id":1}"#, "5"], ItemIDs.Problem(index: 1, repeats: nil)),
            ([#"{"id":1}"#, #""id""#], ItemIDs.Problem(index: 1, repeats: nil)),
            ([#"{"ID":1}"#], ItemIDs.Problem(index: 0, repeats: nil)),
            // The last of repeated members is the item's id, as JSON.parse reads it.
            ([#"{"id":1,"id":2}"#, #"{"id":2}"#], ItemIDs.Problem(index: 1, repeats: 0)),
            ([#"{"id":1,"id":2}"#, #"{"id":1}"#], nil),
            ([#"{ "id" : 1 }"#, #"{"x":{"id":1},"id":2}"#], nil),
            ([], nil),
        ])
    func firstOffending(_ elements: [String], _ expected: ItemIDs.Problem?) {
        #expect(ChangeFixture.ids(ChangeFixture.list(elements)).problem == expected)
    }

    @Test("a JSON Pointer reaches a nested id")
    func pointer() {
        let list = ChangeFixture.list([#"{"meta":{"id":7}}"#, #"{"meta":{"id":"7"}}"#, #"{"meta":{"id":7.0}}"#])
        #expect(ChangeFixture.ids(list, "/meta/id").problem == ItemIDs.Problem(index: 2, repeats: 0))
        #expect(ChangeFixture.ids(list, "meta").problem == ItemIDs.Problem(index: 0, repeats: nil))
        #expect(ChangeFixture.ids(ChangeFixture.list([#"[5,6]"#, #"[5,7]"#]), "/1").problem == nil)
    }

    @Test("large lists read ids in parallel chunks, and still name the first offending item")
    func chunks() {
        let count = 3 * ItemIDs.chunkSize + 17
        func ids(_ id: (Int) -> String) -> ItemIDs {
            ChangeFixture.ids(ChangeFixture.list((0..<count).map { #"{"id":\#(id($0)),"n":\#($0)}"# }))
        }
        let unique = ids { $0 % 2 == 0 ? "\($0)" : #""s\#($0)""# }
        #expect(unique.problem == nil)
        #expect(unique.retainedBytes >= count * 4 && unique.retainedBytes <= count * 16)
        // A repeat in the last chunk of an item from the first.
        #expect(ids { $0 == count - 1 ? "3.0" : "\($0)" }.problem == ItemIDs.Problem(index: count - 1, repeats: 3))
        // A missing id in the third chunk comes before a repeat in the fourth.
        let late = ids { $0 == 2 * ItemIDs.chunkSize + 5 ? "null" : $0 == count - 2 ? "1" : "\($0)" }
        #expect(late.problem == ItemIDs.Problem(index: 2 * ItemIDs.chunkSize + 5, repeats: nil))
        // And a repeat in the second chunk before a missing id in the first chunk's successor.
        let early = ids { $0 == ItemIDs.chunkSize + 1 ? "0" : $0 == 2 * ItemIDs.chunkSize ? "false" : "\($0)" }
        #expect(early.problem == ItemIDs.Problem(index: ItemIDs.chunkSize + 1, repeats: 0))
        #expect(early.retainedBytes == 0)
    }

    @Test("ids-not-unique is a 409 naming the item")
    func error() throws {
        let ids = ChangeFixture.ids(ChangeFixture.list([#"{"id":1}"#, #"{"id":2}"#, #"{"id":"x"}"#, #"{"id":2e0}"#]))
        let error = try #require(throws: FolioError.self) { try ids.requireUnique() }
        #expect(error.code == "ids-not-unique" && error.status == 409)
        #expect(error.detail.contains("item 3 repeats the id of item 1"), "\(error.detail)")
        let missing = ChangeFixture.ids(ChangeFixture.list([#"{"id":1}"#, #"{}"#]), "/id")
        let other = try #require(throws: FolioError.self) { try missing.requireUnique() }
        #expect(other.detail.contains("item 1 has no string or number at idField '/id'"), "\(other.detail)")
    }
}
