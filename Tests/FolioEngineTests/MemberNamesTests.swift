import Testing

@testable import FolioEngine

/// Lookups stop at the first member of a name only where no item names a top-level member
/// twice (`ItemList.namesMembersOnce`); elsewhere the last one still wins (docs/API.md,
/// "Sorting"), whichever chunk of the list the repeating item is in.
@Suite struct MemberNamesTests {
    static func items(_ count: Int, repeatingAt repeating: Int? = nil) -> [String] {
        (0..<count).map { index in
            index == repeating
                ? #"{"id":\#(index),"p":5,"q":"x","p":-1}"# : #"{"id":\#(index),"p":\#(index % 97),"q":"x"}"#
        }
    }

    @Test func theCheckFindsARepeatAnywhereAndOnlyAtTheTopLevel() {
        #expect(SectionsSupport.list(Self.items(1_000)).namesMembersOnce(0..<1_000))
        #expect(!SectionsSupport.list(Self.items(1_000, repeatingAt: 999)).namesMembersOnce(0..<1_000))
        let nested = SectionsSupport.list([#"{"a":{"b":1,"b":2},"c":[{"d":1},{"d":2}]}"#, "3", #""s""#])
        #expect(nested.namesMembersOnce(0..<3), "repeats inside a member, and non-objects, are not top-level repeats")
        let escaped = SectionsSupport.list([#"{"\u0061":1,"b":2}"#])
        #expect(!escaped.namesMembersOnce(0..<1), "an escaped name may repeat another")
        let many = SectionsSupport.list(["{" + (0..<40).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}"])
        #expect(!many.namesMembersOnce(0..<1), "more members than are compared count as a possible repeat")
    }

    /// A repeating item in the last chunk of a long list: sorting, filtering and searching read
    /// its last `p`, not its first.
    @Test func theLastMemberStillWinsWhereAnItemRepeatsAName() throws {
        let count = MemberNamesCheck.chunk + 10
        let repeating = count - 1
        let indexes = SnapshotIndexes(
            list: SectionsSupport.list(Self.items(count, repeatingAt: repeating)), sectionKey: nil)
        #expect(!indexes.membersNamedOnce)
        let p = try FieldPath("p")
        let order = try #require(indexes.order(SortSpec(keys: [SortKey(p)])))
        #expect(order.first == UInt32(repeating), "-1, its last p, sorts first")
        let below = indexes.elements(where: p, .less, ["0"], order: order)
        #expect(below == [UInt32(repeating)])

        let plain = SnapshotIndexes(list: SectionsSupport.list(Self.items(count)), sectionKey: nil)
        #expect(plain.membersNamedOnce)
        let plainOrder = try #require(plain.order(SortSpec(keys: [SortKey(p, descending: true)])))
        #expect(plainOrder.first.map { Int($0) % 97 } == 96)
    }
}
