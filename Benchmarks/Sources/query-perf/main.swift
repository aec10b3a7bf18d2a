import FolioEngine
import Foundation
import ListData

/// `query-perf`: the first-time cost of the derived orders and views behind issue 16's figures
/// on a list shaped like scripts/bench-query.sh's (1,000,000 items: id, name, category of four,
/// price with two decimals, inStock), step by step, on fresh indexes each time. Run a release
/// build: `swift build -c release --product query-perf && .build/release/query-perf [COUNT [STEP]]`
/// (STEP: one label below, e.g. `category`, to time or profile that step alone).

func makeList(count: Int, seed: UInt64) -> ItemList {
    var random = SplitMix64(seed: seed)
    let words = ["alpha", "bravo", "Ørsted", "Œuvre", "garden", "kitchen", "tools", "émile", "zeta", "straße"]
    let categories = ["tools", "garden", "kitchen", "toys"]
    var bytes: [UInt8] = [UInt8(ascii: "[")]
    bytes.reserveCapacity(count * 100)
    var starts: [UInt32] = []
    var ends: [UInt32] = []
    for id in 0..<count {
        if id > 0 { bytes.append(UInt8(ascii: ",")) }
        starts.append(UInt32(bytes.count))
        let name =
            words[Int(random.next() % UInt64(words.count))] + " " + words[Int(random.next() % UInt64(words.count))]
            + " " + String(id)
        // Prices as Python's json writes round(x, 2): no trailing zeros (12.5, 7.0 → 7.0).
        let cents = 100 + Int(random.next() % 99_900)
        let price =
            cents % 100 == 0
            ? "\(cents / 100).0"
            : cents % 10 == 0
                ? "\(cents / 100).\(cents % 100 / 10)" : "\(cents / 100).\(String(format: "%02d", cents % 100))"
        let item =
            "{\"id\":\(id),\"name\":\"\(name)\",\"category\":\"\(categories[id % 4])\",\"price\":\(price),\"inStock\":\(id % 3 != 0)}"
        bytes.append(contentsOf: Array(item.utf8))
        ends.append(UInt32(bytes.count))
    }
    bytes.append(UInt8(ascii: "]"))
    return ItemList(bytes: bytes, starts: starts, ends: ends)
}

func milliseconds(_ body: () -> Void) -> Double {
    let start = ContinuousClock.now
    body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
}

/// Median of `rounds` runs of `body` on fresh indexes.
func measure(_ label: String, rounds: Int = 5, _ body: (SnapshotIndexes) -> Void) {
    if let only = CommandLine.arguments.dropFirst(2).first, label != only { return }
    var times: [Double] = []
    for _ in 0..<rounds {
        let indexes = SnapshotIndexes(list: list, sectionKey: name)
        times.append(milliseconds { body(indexes) })
    }
    times.sort()
    print(
        "\(label): \(String(format: "%.1f", times[times.count / 2])) ms (median of \(rounds); \(times.map { String(format: "%.0f", $0) }.joined(separator: " ")))"
    )
}

let count = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 1_000_000
let list = makeList(count: count, seed: 16)
let name = try FieldPath("name")
let price = try FieldPath("price")
let category = try FieldPath("category")
print("list: \(list.count) items, \(list.bytes.count) bytes")
measure("price") { _ = $0.order(SortSpec(keys: [SortKey(price)])) }
measure("-price") { _ = $0.order(SortSpec(keys: [SortKey(price, descending: true)])) }
measure("category") { _ = $0.order(SortSpec(keys: [SortKey(category)])) }
measure("category,-price") { _ = $0.order(try! SortSpec(parsing: ["category", "-price"])) }
measure("price[gte]=100&price[lt]=200, sort -price") { indexes in
    let order = indexes.order(SortSpec(keys: [SortKey(price, descending: true)]))
    let low = indexes.elements(where: price, .greaterOrEqual, ["100"], order: order)
    _ = indexes.elements(where: price, .less, ["200"], order: low)
}
measure("name (sectionKey)") { _ = $0.order(SortSpec(keys: [SortKey(name)])) }
// The fold behind `?q=` (issue 46: the first search right after a fill waits for it).
measure("fold name") { $0.prepareSearch(in: [name]) }
measure("fold name, category") { $0.prepareSearch(in: [name, category]) }
measure("price[gte]=100&price[lt]=200, sort -price,name") { indexes in
    let order = indexes.order(try! SortSpec(parsing: ["-price", "name"]))
    let low = indexes.elements(where: price, .greaterOrEqual, ["100"], order: order)
    _ = indexes.elements(where: price, .less, ["200"], order: low)
}
// The check that lets lookups stop at the first member of a name, alone and before a fold.
measure("names check") { _ = $0.membersNamedOnce }
if CommandLine.arguments.dropFirst(2).first == "fold name, checked first" {
    var times: [Double] = []
    for _ in 0..<5 {
        let indexes = SnapshotIndexes(list: list, sectionKey: name)
        _ = indexes.membersNamedOnce
        times.append(milliseconds { indexes.prepareSearch(in: [name]) })
    }
    print("fold name, checked first: \(times.sorted()[2]) ms (median of 5)")
}
