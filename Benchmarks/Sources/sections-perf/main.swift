import FolioEngine
import Foundation
import ListData

/// `sections-perf`: what a route with `sectionKey: name` and a client's other orders cost on a
/// list of 1,000,000 names (about a quarter non-ASCII, a third duplicates): the orders, the
/// section indexes, the lookups, the bytes kept per element and the peak memory. Prints wall
/// and CPU time of each step; run a release build:
/// `swift build -c release --product sections-perf && .build/release/sections-perf`.

func memory(_ key: String) -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    for line in status.split(separator: "\n") where line.hasPrefix(key + ":") {
        return Int(line.split(separator: " ").dropFirst().first ?? "0").map { $0 * 1024 } ?? 0
    }
    return 0
}

/// Resets the peak RSS so the next reading covers only what follows.
func resetPeak() {
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
}

func makeList(count: Int, seed: UInt64) -> ItemList {
    var random = SplitMix64(seed: seed)
    let first = [
        "Alexander", "Alexandra", "anna", "Bob", "Charlotte", "Christopher", "David", "Élodie", "Emma",
        "Frederick", "Gabriel", "Hannah", "Isabella", "Jacob", "Jonathan", "Katherine", "Liam", "Łukasz",
        "Margaret", "Matthew", "Nicholas", "Olivia", "Øyvind", "Patricia", "Quentin", "Rebecca",
        "Sebastian", "Sophia", "Theodore", "Ulrich", "Victoria", "William", "Xavier", "Yvonne", "Zachary",
        "Иван", "Йоханна", "42nd Street", "_underscore", "Zoë",
    ]
    let last = [
        "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodríguez",
        "Martinez", "Hernández", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore",
        "Jackson", "Martin", "Lee", "Perez", "Thompson", "White", "Harris", "Sánchez", "Clark", "Ramirez",
    ]
    var bytes: [UInt8] = [UInt8(ascii: "[")]
    bytes.reserveCapacity(count * 64)
    var starts: [UInt32] = []
    var ends: [UInt32] = []
    starts.reserveCapacity(count)
    ends.reserveCapacity(count)
    for id in 0..<count {
        if id > 0 { bytes.append(UInt8(ascii: ",")) }
        starts.append(UInt32(bytes.count))
        let name =
            first[Int(random.next() % UInt64(first.count))] + " "
            + last[Int(random.next() % UInt64(last.count))] + " " + String(random.next() % 1000)
        let price = String(random.next() % 100_000) + "." + String(random.next() % 100)
        bytes.append(contentsOf: Array("{\"id\":\(id),\"name\":\"\(name)\",\"price\":\(price)}".utf8))
        ends.append(UInt32(bytes.count))
    }
    bytes.append(UInt8(ascii: "]"))
    return ItemList(bytes: bytes, starts: starts, ends: ends)
}

/// This thread's CPU time in ms: steady even when other work shares the cores.
func cpuMilliseconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) * 1000 + Double(spec.tv_nsec) / 1e6
}

func time<T>(_ label: String, _ body: () -> T) -> T {
    let start = ContinuousClock.now
    let cpuStart = cpuMilliseconds()
    let result = body()
    let cpu = cpuMilliseconds() - cpuStart
    let elapsed = ContinuousClock.now - start
    let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    print("\(label): \(String(format: "%.1f", ms)) ms wall, \(String(format: "%.1f", cpu)) ms CPU")
    return result
}

let count = 1_000_000
let list = makeList(count: count, seed: 7)
let name = try FieldPath("name")
let price = try FieldPath("price")
let baseRSS = memory("VmRSS")
resetPeak()
let indexes = SnapshotIndexes(list: list, sectionKey: name)
let (order, sections) = time("sectionKey order + alphabetical index") { () -> ([UInt32]?, [Section]) in
    let order = indexes.order(SortSpec(keys: [SortKey(name)]))
    return (order, indexes.alphabeticalSections(order: order))
}
let peak = memory("VmHWM")
print(
    "list \(list.retainedBytes / 1_048_576) MiB; retained \(indexes.retainedBytes) B = "
        + String(format: "%.2f", Double(indexes.retainedBytes) / Double(count)) + " B/element; "
        + "peak above the list \((peak - baseRSS) / 1_048_576) MiB; \(sections.count) sections")
precondition(sections.reduce(0) { $0 + $1.count } == count)
_ = time("-name (derived from name)") { indexes.order(SortSpec(keys: [SortKey(name, descending: true)])) }
_ = time("price (numbers)") { indexes.order(SortSpec(keys: [SortKey(price)])) }
_ = time("name, -price") { indexes.order(try! SortSpec(parsing: ["name", "-price"])) }
let inE = time("elements(inSection: E) in name order") { indexes.elements(inSection: "E", order: order) }
let priceOrder = indexes.order(SortSpec(keys: [SortKey(price)]))
_ = time("elements(inSection: E) in price order") { indexes.elements(inSection: "E", order: priceOrder) }
_ = time("valueSections(price)") { indexes.valueSections(field: price, order: priceOrder) }
_ = time("filter price=500.5") { indexes.elements(where: price, equals: "500.5", order: order) }
print("section E has \(inE.count) items; retained now \(indexes.retainedBytes / count) B/element")
