import Testing

@testable import FolioEngine

/// The patch of a `since` answer, case by case (docs/API.md, "Changes between snapshots").
@Suite struct ViewChangesTests {
    typealias Operation = ViewChanges.Operation

    /// The changes from `old` to `new` (element texts), each a view of its whole list unless
    /// orders are given.
    func changes(
        _ old: [String], _ new: [String], oldOrder: [UInt32]? = nil, newOrder: [UInt32]? = nil,
        form: ItemForm = .whole
    ) throws -> ViewChanges {
        let oldList = ChangeFixture.list(old)
        let newList = ChangeFixture.list(new)
        return try ViewChanges(
            from: ListView(list: oldList, order: oldOrder), ids: ChangeFixture.ids(oldList),
            to: ListView(list: newList, order: newOrder), ids: ChangeFixture.ids(newList), form: form)
    }

    func items(_ ids: [Int], version: Int = 0) -> [String] {
        ids.map { #"{"id":\#($0),"v":\#(version)}"# }
    }

    @Test("removes from the back, then moves, then adds and replaces from the front")
    func example() throws {
        let a = #"{"id":1,"name":"a"}"#
        let b = #"{"id":2,"name":"b"}"#
        let c = #"{"id":3,"name":"c"}"#
        let d = #"{"id":4,"name":"d"}"#
        let e = #"{"id":5,"name":"e"}"#
        let b2 = #"{"id":2,"name":"B"}"#
        let result = try changes([a, b, c, d], [a, c, e, b2])
        #expect(result.operations == [.remove(at: 3), .move(from: 2, to: 1), .add(at: 2), .replace(at: 3)])
        #expect(result.removeCount == 1 && result.moveCount == 1 && result.addCount == 1 && result.replaceCount == 1)
        #expect(result.previousCount == 4 && result.count == 4)
    }

    @Test(
        "counts of each kind",
        arguments: [
            // old ids, new ids, changed ids (new version), R, A, C, M
            ([1, 2, 3], [1, 2, 3], [], 0, 0, 0, 0),
            ([1, 2, 3], [1, 2, 3], [2], 0, 0, 1, 0),
            ([1, 2, 3], [3, 2, 1], [], 0, 0, 0, 2),
            ([1, 2, 3, 4, 5], [2, 3, 4, 5, 1], [], 0, 0, 0, 1),
            ([1, 2, 3, 4, 5], [5, 1, 2, 3, 4], [1], 0, 0, 1, 1),
            ([1, 2, 3, 4, 5, 6], [4, 5, 6, 1, 2, 3], [], 0, 0, 0, 3),
            ([], [1, 2], [], 0, 2, 0, 0),
            ([1, 2], [], [], 2, 0, 0, 0),
            ([1, 2, 3], [4, 5], [], 3, 2, 0, 0),
            ([1, 2, 3, 4], [2, 9, 1, 4], [4], 1, 1, 1, 1),
        ] as [([Int], [Int], [Int], Int, Int, Int, Int)])
    func counts(_ old: [Int], _ new: [Int], _ changed: [Int], r: Int, a: Int, c: Int, m: Int) throws {
        let newItems = new.map { #"{"id":\#($0),"v":\#(changed.contains($0) ? 1 : 0)}"# }
        let result = try changes(items(old), newItems)
        #expect([result.removeCount, result.addCount, result.replaceCount, result.moveCount] == [r, a, c, m])
        let applied = try AppliedPatch(
            PatchWriter.body(result, from: "o", to: "n"), to: items(old).map { Array($0.utf8) })
        #expect(applied.items.raw == newItems.raw)
        #expect([applied.removes, applied.adds, applied.replaces, applied.moves] == [r, a, c, m])
    }

    @Test("a content change keeps the item in place: one replace, never a move")
    func contentOnly() throws {
        let result = try changes(items([1, 2, 3]), [items([1])[0], #"{"id":2,"v":9}"#, items([3])[0]])
        #expect(result.operations == [.replace(at: 1)])
    }

    @Test("the same view of the same snapshot has no changes")
    func sameView() throws {
        let list = ChangeFixture.list(items([1, 2, 3]))
        let ids = ChangeFixture.ids(list)
        let order: [UInt32] = [2, 0]
        let view = ListView(list: list, order: order)
        let result = try ViewChanges(from: view, ids: ids, to: view, ids: ids)
        #expect(result.operations.isEmpty && result.count == 2 && result.previousCount == 2)
        // Another view of the same snapshot: the items that left it are removed.
        let other = try ViewChanges(from: ListView(list: list), ids: ids, to: view, ids: ids)
        #expect(other.operations == [.remove(at: 1), .move(from: 1, to: 0)])
    }

    @Test("an id written another way is the same item, replaced; a string id is not a number id")
    func idSpellings() throws {
        let respelled = try changes([#"{"id":7}"#, #"{"id":"k"}"#], [#"{"id":7.0}"#, #"{"id":"\u006b"}"#])
        #expect(respelled.operations == [.replace(at: 0), .replace(at: 1)])
        let retyped = try changes([#"{"id":7}"#], [#"{"id":"7"}"#])
        #expect(retyped.operations == [.remove(at: 0), .add(at: 0)])
    }

    @Test("views with an order and a window: positions are view positions")
    func orderedViews() throws {
        // Old view: ids 4, 2, 3 (a window of a sorted order); new: 3, 4, 5, 2.
        let oldList = ChangeFixture.list(items([1, 2, 3, 4]))
        let newList = ChangeFixture.list(items([5, 4, 3, 2], version: 0))
        let oldOrder: [UInt32] = [0, 3, 1, 2]
        let result = try ViewChanges(
            from: ListView(list: oldList, order: oldOrder, window: 1..<4), ids: ChangeFixture.ids(oldList),
            to: ListView(list: newList, order: [2, 1, 0, 3]), ids: ChangeFixture.ids(newList))
        let applied = try AppliedPatch(
            PatchWriter.body(result, from: "o", to: "n"), to: items([4, 2, 3]).map { Array($0.utf8) })
        #expect(applied.items.raw == items([3, 4, 5, 2]).raw)
        #expect(result.removeCount == 0 && result.addCount == 1 && result.moveCount == 1 && result.replaceCount == 0)
    }

    @Test("with fields, a change the request does not write is no change")
    func sparseFields() throws {
        let form = ItemForm.fields(SparseFields(["id", "name"]))
        let old = [#"{"id":1,"name":"a","price":1}"#, #"{"id":2,"name":"b","price":2}"#]
        let new = [#"{"id":1,"name":"a","price":5}"#, #"{"name":"B","price":2,"id":2}"#]
        let result = try changes(old, new, form: form)
        #expect(result.operations == [.replace(at: 1)])
        let body = String(decoding: PatchWriter.body(result, from: "o", to: "n"), as: UTF8.self)
        #expect(body.hasSuffix(#""patch":[{"op":"replace","path":"/1","value":{"name":"B","id":2}}]}"#), "\(body)")
        // The whole items differ in both.
        #expect(try changes(old, new).operations == [.replace(at: 0), .replace(at: 1)])
    }

    @Test("a custom form decides what is written and compared")
    func customForm() throws {
        // Writes each item's length only: items of equal length are equal for it.
        let form = ItemForm.custom { item, output in output += Array("\(item.count)".utf8) }
        let result = try changes(
            [#"{"id":1,"v":1}"#, #"{"id":2}"#], [#"{"id":1,"v":2}"#, #"{"id":2,"v":3}"#], form: form)
        #expect(result.operations == [.replace(at: 1)])
        let body = String(decoding: PatchWriter.body(result, from: "o", to: "n"), as: UTF8.self)
        #expect(body.hasSuffix(#"[{"op":"replace","path":"/1","value":14}]}"#), "\(body)")
    }

    @Test("a list without unique ids has no changes, as the old or the new snapshot")
    func idsNotUnique() throws {
        let good = items([1, 2])
        let bad = [#"{"id":1}"#, #"{"id":1.0}"#]
        for (old, new) in [(good, bad), (bad, good), (bad, bad)] {
            let error = try #require(throws: FolioError.self) { try changes(old, new) }
            #expect(error.code == "ids-not-unique" && error.detail.contains("item 1"))
        }
        // Even the same snapshot against itself.
        let list = ChangeFixture.list(bad)
        let view = ListView(list: list)
        #expect(throws: FolioError.self) {
            try ViewChanges(from: view, ids: ChangeFixture.ids(list), to: view, ids: ChangeFixture.ids(list))
        }
    }

    @Test("in a sorted view, an item whose sort key changes moves and is replaced; one that keeps it is replaced")
    func sortedViews() throws {
        let old = [
            #"{"id":1,"name":"b","price":1}"#, #"{"id":2,"name":"a","price":2}"#, #"{"id":3,"name":"c","price":3}"#,
        ]
        let priced = [#"{"id":1,"name":"b","price":9}"#, old[1], old[2]]
        let renamed = [#"{"id":1,"name":"d","price":1}"#, old[1], old[2]]
        let sort = try SortSpec(parsing: ["name"])
        func view(_ elements: [String]) -> (ListView, ItemIDs) {
            let list = ChangeFixture.list(elements)
            let order = SnapshotIndexes(list: list, sectionKey: nil).order(sort)
            return (ListView(list: list, order: order), ChangeFixture.ids(list))
        }
        let (oldView, oldIDs) = view(old)
        let (pricedView, pricedIDs) = view(priced)
        #expect(
            try ViewChanges(from: oldView, ids: oldIDs, to: pricedView, ids: pricedIDs).operations == [.replace(at: 1)])
        let (renamedView, renamedIDs) = view(renamed)
        let moved = try ViewChanges(from: oldView, ids: oldIDs, to: renamedView, ids: renamedIDs)
        #expect(moved.moveCount == 1 && moved.replaceCount == 1 && moved.operations.count == 2)
        let applied = try AppliedPatch(
            PatchWriter.body(moved, from: "o", to: "n"), to: [old[1], old[0], old[2]].map { Array($0.utf8) })
        #expect(applied.items.raw == [old[1], old[2], renamed[0]].raw)
    }
}

extension ViewChangesTests {
    @Test("since's request problems have stable codes")
    func requestProblems() {
        let combined = FolioError.sinceCombined(with: "offset")
        #expect(combined.code == "conflicting-parameters" && combined.status == 400)
        #expect(combined.detail.contains("offset"))
        #expect(FolioError.changesUnavailable.code == "changes-unavailable")
        #expect(FolioError.changesUnavailable.status == 400)
    }
}
