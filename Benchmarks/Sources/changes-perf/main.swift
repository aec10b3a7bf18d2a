import FolioEngine
import Foundation
import ListData

/// `changes-perf`: issue 41's change feed on a 1,000,000-item list (`ListBody`, about 100 bytes
/// an item) of which 1 % changed between two snapshots — a quarter each removed, added,
/// replaced (one member added) and moved — step by step: the id tables (once per snapshot),
/// then the diff and the patch body of a `since` answer, in upstream order and sorted by name.
/// Run a release build:
/// `swift build -c release --product changes-perf && .build/release/changes-perf [COUNT [ROUNDS]]`.

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
}

/// Median of `rounds` runs, printed with every run.
func measure(_ label: String, rounds: Int, _ body: () throws -> Void) rethrows {
    var times: [Double] = []
    for _ in 0..<rounds { times.append(try milliseconds(body)) }
    let sorted = times.sorted()
    print(
        "\(label): \(String(format: "%.1f", sorted[sorted.count / 2])) ms (median of \(rounds); \(times.map { String(format: "%.1f", $0) }.joined(separator: " ")))"
    )
}

func index(_ body: [UInt8]) throws -> ItemList {
    var indexer = ListIndexer(items: .root, limits: IndexLimits(), sort: [])
    indexer.reserve(additionalBytes: body.count)
    try body.withUnsafeBytes { try indexer.append($0) }
    _ = try indexer.endBody()
    return try indexer.finish().0
}

/// A list body of these elements.
func body(_ elements: [ArraySlice<UInt8>]) -> [UInt8] {
    var out: [UInt8] = [UInt8(ascii: "[")]
    out.reserveCapacity(elements.reduce(2) { $0 + $1.count + 1 })
    for (position, element) in elements.enumerated() {
        if position > 0 { out.append(UInt8(ascii: ",")) }
        out += element
    }
    out.append(UInt8(ascii: "]"))
    return out
}

let arguments = CommandLine.arguments.dropFirst()
let count = Int(arguments.first ?? "") ?? 1_000_000
let rounds = Int(arguments.dropFirst().first ?? "") ?? 7
let old = try index(ListBody.make(count: count))
let oldElements = (0..<old.count).map { old.bytes[old.range(of: $0)] }

// The new snapshot: 1 % of the items changed, a quarter of them each way.
var random = SplitMix64(seed: 41)
let quarter = count / 400
var positions = Array(0..<count)
var removed = 0
while removed < quarter {
    positions.remove(at: Int(random.next() % UInt64(positions.count)))
    removed += 1
}
var elements: [ArraySlice<UInt8>] = positions.map { oldElements[$0] }
var replaced = Set<Int>()
while replaced.count < quarter {
    let position = Int(random.next() % UInt64(elements.count))
    guard replaced.insert(position).inserted else { continue }
    var changed = Array(elements[position].dropLast())
    changed += Array(#","rev":2}"#.utf8)
    elements[position] = changed[...]
}
for added in 0..<quarter {
    let element = Array(
        #"{"id":\#(count + added),"name":"Added \#(added)","category":"new","price":1.00,"tags":[]}"#.utf8)
    elements.insert(element[...], at: Int(random.next() % UInt64(elements.count + 1)))
}
for _ in 0..<quarter {
    let moved = elements.remove(at: Int(random.next() % UInt64(elements.count)))
    elements.insert(moved, at: Int(random.next() % UInt64(elements.count + 1)))
}
let new = try index(body(elements))
print("lists: \(old.count) and \(new.count) items, \(old.bytes.count) and \(new.bytes.count) bytes")

let id = try FieldPath("id")
var oldIDs = ItemIDs(list: old, field: id)
var newIDs = ItemIDs(list: new, field: id)
measure("id table of the old list (once per snapshot)", rounds: rounds) { oldIDs = ItemIDs(list: old, field: id) }
measure("id table of the new list", rounds: rounds) { newIDs = ItemIDs(list: new, field: id) }
print("id table: \(String(format: "%.2f", Double(oldIDs.retainedBytes) / Double(count))) bytes an item")

// What reading two lists' bytes costs on this machine now, the floor of comparing every item:
// the old list against a copy of itself (equal, so memcmp reads all of both).
let copy = Array(old.bytes)
measure("reference: memcmp of the old list's bytes with a copy", rounds: rounds) {
    let same = old.bytes.withUnsafeBytes { a in
        copy.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, a.count) }
    }
    precondition(same == 0)
}

func report(_ label: String, from oldView: ListView, _ oldIDs: ItemIDs, to newView: ListView, _ newIDs: ItemIDs) throws
{
    var changes = try ViewChanges(from: oldView, ids: oldIDs, to: newView, ids: newIDs)
    var patch: [UInt8] = []
    try measure("\(label): diff", rounds: rounds) {
        changes = try ViewChanges(from: oldView, ids: oldIDs, to: newView, ids: newIDs)
    }
    measure("\(label): patch body", rounds: rounds) { patch = PatchWriter.body(changes, from: "old", to: "new") }
    try measure("\(label): diff and patch body", rounds: rounds) {
        let changes = try ViewChanges(from: oldView, ids: oldIDs, to: newView, ids: newIDs)
        patch = PatchWriter.body(changes, from: "old", to: "new")
    }
    // The bytes of every item the patch touches (the new form; a removed item's old form), and
    // of the values it carries.
    var touched = 0
    var values = 0
    for operation in changes.operations {
        switch operation {
        case .remove(let at): touched += oldView.list.range(of: oldView.elementIndex(at: at)).count
        case .add(let at), .replace(let at):
            let bytes = newView.list.range(of: newView.elementIndex(at: at)).count
            touched += bytes
            values += bytes
        case .move: break
        }
    }
    let operations = changes.operations.count
    print(
        "\(label): R \(changes.removeCount), A \(changes.addCount), C \(changes.replaceCount), M \(changes.moveCount); "
            + "patch \(patch.count) bytes = values \(values) + \(String(format: "%.1f", Double(patch.count - values) / Double(operations))) bytes an operation; "
            + "goal: ≤ items' bytes \(touched) + 40 × \(operations) = \(touched + 40 * operations)"
    )
}

try report("upstream order", from: ListView(list: old), oldIDs, to: ListView(list: new), newIDs)
let byName = try SortSpec(parsing: ["name"])
let oldOrder = SnapshotIndexes(list: old, sectionKey: nil).order(byName)
let newOrder = SnapshotIndexes(list: new, sectionKey: nil).order(byName)
try report(
    "sorted by name", from: ListView(list: old, order: oldOrder), oldIDs, to: ListView(list: new, order: newOrder),
    newIDs)
