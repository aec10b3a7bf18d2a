import Foundation
import Testing

@testable import FolioEngine

/// Random snapshots against a brute-force oracle: the patch, applied to the old view, gives the
/// new view byte for byte, with exactly the minimal count of each operation (docs/API.md,
/// "Changes between snapshots").
@Suite struct ViewChangesRandomTests {
    /// An item's identity as the oracle knows it, whatever its spelling.
    enum Key: Hashable {
        case number(Int)
        case big(Int)
        case text(String)
    }

    struct Item {
        var key: Key
        var text: String
    }

    struct Generator {
        var rng: SplitMix64

        /// The id's JSON text, in one of the spellings of its value.
        mutating func spell(_ key: Key) -> String {
            switch key {
            case .number(let n):
                var spellings = ["\(n)", "\(n).0", "\(n)e0", "\(n * 10)e-1", "\(n)E+0", "\(n).000"]
                if n == 0 { spellings += ["-0", "0e5", "-0.0"] }
                return rng.pick(spellings)
            case .big(let n):
                // Beyond 2^53: only exact decimal comparison tells these apart.
                let digits = "90071992547409\(93 + n)"
                return rng.pick([
                    digits, digits + ".0", digits + "0e-1",
                    String(digits.prefix(1)) + "." + digits.dropFirst() + "e\(digits.count - 1)",
                ])
            case .text(let s):
                // Escape some characters as \u00XX: the same decoded text.
                let escaped = s.unicodeScalars.map { scalar in
                    rng.chance(30) ? String(format: "\\u%04x", scalar.value) : String(scalar)
                }
                return "\"" + escaped.joined() + "\""
            }
        }

        mutating func value() -> String {
            rng.pick([
                "1.50", "2e3", "-0", "12345678901234567890", "\"caf\\u00e9\"", "[1, 2]", "{\"a\" : null}", "true",
            ])
        }

        /// An item: members in varying order and spacing, so a re-encoder would show.
        mutating func item(_ key: Key) -> Item {
            let id = "\"id\":" + spell(key)
            let v = "\"v\" : " + value()
            let members = rng.chance(50) ? [id, v] : [v, id]
            let extra = rng.chance(30) ? [", \"w\":" + value()] : []
            return Item(key: key, text: "{" + members.joined(separator: ",") + extra.joined() + "}")
        }

        mutating func key(from pool: inout [Key]) -> Key {
            pool.remove(at: rng.below(pool.count))
        }

        /// An old list and a new one made from it by removes, content changes, adds and moves.
        mutating func snapshots() -> (old: [Item], new: [Item]) {
            var pool: [Key] =
                (0..<40).map { Key.number($0) } + (0..<8).map { Key.big($0) }
                + ["a", "b", "é", "k1", "k2", "x y", "Zed", "ü"].map { Key.text($0) }
            let oldCount = rng.below(30)
            let old = (0..<oldCount).map { _ in item(key(from: &pool)) }
            var new: [Item] = []
            for item in old where !rng.chance(15) {
                new.append(rng.chance(20) ? self.item(item.key) : item)
            }
            for _ in 0..<rng.below(8) where !pool.isEmpty {
                new.insert(item(key(from: &pool)), at: rng.below(new.count + 1))
            }
            if rng.chance(10) {
                new.shuffle(using: &rng)
            } else {
                for _ in 0..<rng.below(4) where !new.isEmpty {
                    let moved = new.remove(at: rng.below(new.count))
                    new.insert(moved, at: rng.below(new.count + 1))
                }
            }
            return (old, new)
        }

        /// A view of `items`: all, a filter by key (the same in both snapshots), that filter
        /// sorted by key, a window of it, or any order at all.
        mutating func view(_ items: [Item], list: ItemList, mode: Int) -> ListView {
            let kept = items.indices.filter { keep(items[$0].key) }
            switch mode {
            case 0: return ListView(list: list)
            case 1: return ListView(list: list, order: kept.map { UInt32($0) })
            case 2, 3:
                let sorted = kept.sorted { "\(items[$0].key)" < "\(items[$1].key)" }.map { UInt32($0) }
                guard mode == 3, sorted.count > 2 else { return ListView(list: list, order: sorted) }
                return ListView(list: list, order: sorted, window: 1..<sorted.count - 1)
            default:
                return ListView(list: list, order: items.indices.shuffled(using: &rng).map { UInt32($0) })
            }
        }

        func keep(_ key: Key) -> Bool {
            switch key {
            case .number(let n): n % 3 != 1
            case .big: true
            case .text(let s): s != "b"
            }
        }
    }

    /// The longest common subsequence, the slow way.
    static func lcs(_ a: [Key], _ b: [Key]) -> Int {
        guard !a.isEmpty, !b.isEmpty else { return 0 }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 1...a.count {
            for j in 1...b.count {
                table[i][j] = a[i - 1] == b[j - 1] ? table[i - 1][j - 1] + 1 : max(table[i - 1][j], table[i][j - 1])
            }
        }
        return table[a.count][b.count]
    }

    @Test("patches apply to the old view and give the new one, with minimal counts", arguments: 0..<8)
    func random(_ batch: Int) throws {
        for round in 0..<150 {
            let seed = UInt64(batch * 1_000 + round)
            var generator = Generator(rng: SplitMix64(seed: seed))
            let (old, new) = generator.snapshots()
            let oldList = ChangeFixture.list(old.map(\.text))
            let newList = ChangeFixture.list(new.map(\.text))
            let mode = generator.rng.below(5)
            let oldView = generator.view(old, list: oldList, mode: mode)
            let newView = generator.view(new, list: newList, mode: generator.rng.chance(80) ? mode : 4)
            let fields: SparseFields? = generator.rng.pick([
                nil, nil, nil, SparseFields(["v"]), SparseFields(["id", "w"]),
            ])
            let changes = try ViewChanges(
                from: oldView, ids: ChangeFixture.ids(oldList), to: newView, ids: ChangeFixture.ids(newList),
                form: .fields(fields))
            let body = PatchWriter.body(changes, from: "T\(seed)", to: "N\(seed)")

            // The oracle, from the keys the generator knows.
            let oldKeys = (0..<oldView.count).map { old[oldView.elementIndex(at: $0)].key }
            let newKeys = (0..<newView.count).map { new[newView.elementIndex(at: $0)].key }
            let oldWritten = ChangeFixture.written(oldView, form: fields)
            let newWritten = ChangeFixture.written(newView, form: fields)
            let oldSet = Set(oldKeys)
            let newSet = Set(newKeys)
            let commonOld = oldKeys.filter(newSet.contains)
            let commonNew = newKeys.filter(oldSet.contains)
            let writtenBefore = Dictionary(uniqueKeysWithValues: zip(oldKeys, oldWritten))
            let replaces = zip(newKeys, newWritten).filter { key, bytes in
                writtenBefore[key].map { $0 != bytes } ?? false
            }.count
            let expected = [
                oldKeys.count - commonOld.count, newKeys.count - commonNew.count, replaces,
                commonNew.count - Self.lcs(commonOld, commonNew),
            ]

            let context = Comment(rawValue: "seed \(seed), mode \(mode): \(String(decoding: body, as: UTF8.self))")
            let applied = try AppliedPatch(body, to: oldWritten)
            #expect(applied.items.raw == newWritten.raw, context)
            #expect([applied.removes, applied.adds, applied.replaces, applied.moves] == expected, context)
            #expect(
                [changes.removeCount, changes.addCount, changes.replaceCount, changes.moveCount] == expected, context)
            #expect(applied.changes["from"] as? String == "T\(seed)" && applied.changes["to"] as? String == "N\(seed)")
            #expect(applied.changes["count"] as? Int == newView.count, context)
            #expect(applied.changes["previousCount"] as? Int == oldView.count, context)
        }
    }

    @Test("a longer list: ten thousand items, one percent changed")
    func longer() throws {
        var rng = SplitMix64(seed: 41)
        let count = 10_000
        let old = (0..<count).map { #"{"id":\#($0),"v":0}"# }
        var new = old
        for _ in 0..<25 { new.remove(at: rng.below(new.count)) }
        for _ in 0..<25 {
            let index = rng.below(new.count)
            new[index] = new[index].replacingOccurrences(of: #""v":0"#, with: #""v":1"#)
        }
        for n in 0..<25 { new.insert(#"{"id":"n\#(n)","v":0}"#, at: rng.below(new.count + 1)) }
        for _ in 0..<25 {
            let moved = new.remove(at: rng.below(new.count))
            new.insert(moved, at: rng.below(new.count + 1))
        }
        let oldList = ChangeFixture.list(old)
        let newList = ChangeFixture.list(new)
        let changes = try ViewChanges(
            from: ListView(list: oldList), ids: ChangeFixture.ids(oldList), to: ListView(list: newList),
            ids: ChangeFixture.ids(newList))
        let applied = try AppliedPatch(PatchWriter.body(changes, from: "a", to: "b"), to: old.map { Array($0.utf8) })
        #expect(applied.items.raw == new.raw)
        #expect(changes.removeCount == 25 && changes.addCount == 25)
        #expect(changes.moveCount <= 25 && changes.replaceCount <= 25)
    }
}

extension ViewChangesRandomTests {
    /// The ids of `list` with hashes from `hash`, so that different ids collide.
    static func colliding(_ list: ItemList, _ hash: (Int) -> UInt32) -> ItemIDs {
        ItemIDs(list: list, field: try! FieldPath("id"), hashes: (0..<list.count).map(hash), firstMissing: nil)
    }

    @Test("ids that share a hash are told apart: in the table, and when a walk in step trusted a hash")
    func collisions() throws {
        for seed in 0..<60 {
            var generator = Generator(rng: SplitMix64(seed: UInt64(seed)))
            let (old, new) = generator.snapshots()
            let oldList = ChangeFixture.list(old.map(\.text))
            let newList = ChangeFixture.list(new.map(\.text))
            // Every id one hash, or one of two (by its key: equal ids hash equal): pairs made in
            // step are then wrong until compared.
            func hash(_ items: [Item]) -> (Int) -> UInt32 {
                seed % 2 == 0 ? { _ in 7 } : { UInt32("\(items[$0].key)".count % 2) }
            }
            let oldIDs = Self.colliding(oldList, hash(old))
            let newIDs = Self.colliding(newList, hash(new))
            #expect(oldIDs.problem == nil && newIDs.problem == nil)
            let changes = try ViewChanges(
                from: ListView(list: oldList), ids: oldIDs, to: ListView(list: newList), ids: newIDs)
            let oldKeys = old.map(\.key)
            let newKeys = new.map(\.key)
            let common = newKeys.filter(Set(oldKeys).contains)
            let applied = try AppliedPatch(
                PatchWriter.body(changes, from: "a", to: "b"), to: old.map { Array($0.text.utf8) })
            #expect(applied.items.raw == new.map(\.text).raw, "seed \(seed)")
            #expect(changes.removeCount == oldKeys.count - common.count, "seed \(seed)")
            #expect(changes.addCount == newKeys.count - common.count, "seed \(seed)")
            #expect(
                changes.moveCount == common.count - Self.lcs(oldKeys.filter(Set(newKeys).contains), common),
                "seed \(seed)")
        }
        // Repeated ids are still found among colliding hashes.
        let repeated = ChangeFixture.list([#"{"id":1}"#, #"{"id":2}"#, #"{"id":1.0}"#])
        #expect(Self.colliding(repeated) { _ in 3 }.problem == ItemIDs.Problem(index: 2, repeats: 0))
    }
}
