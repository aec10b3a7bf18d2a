import Foundation
import Testing

@testable import FolioClient

/// A `since` patch applied to sparse rows (docs/CLIENT.md, "Keeping the user's place"): a pure
/// unit, as the gateway of this branch does not answer `since` yet.
@Suite struct ListPatchTests {
    struct Row: Decodable, Sendable, Equatable {
        var id: Int
        var version = 0
    }

    /// The answer exactly as docs/API.md, "Changes between snapshots", writes it.
    @Test func theWireFormatDecodes() throws {
        let body = #"""
            {"changes": {"from": "T1", "to": "T2", "count": 3, "previousCount": 3},
             "patch": [{"op": "remove", "path": "/1"},
                       {"op": "add", "path": "/2", "value": {"id": 77, "version": 0}},
                       {"op": "replace", "path": "/0", "value": {"id": 78, "version": 1}},
                       {"op": "move", "from": "/2", "path": "/0"}]}
            """#
        let patch = try JSONDecoder().decode(ListPatch<Row>.self, from: Data(body.utf8))
        #expect(patch.from == "T1" && patch.to == "T2" && patch.count == 3 && patch.previousCount == 3)
        #expect(patch.operations.count == 4)
        guard case .move(from: 2, to: 0) = patch.operations[3], case .add(2, Row(id: 77)) = patch.operations[1] else {
            Issue.record("\(patch.operations)")
            return
        }
        let bad =
            #"{"changes": {"from": "a", "to": "b", "count": 0, "previousCount": 0}, "patch": [{"op": "copy", "path": "/0"}]}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ListPatch<Row>.self, from: Data(bad.utf8)) }
    }

    /// Loaded rows and placeholders shift; added and replaced rows come with their values; the
    /// change names old indexes for removals and reloads, new ones for insertions.
    @Test func rowsShiftAndTheChangeIsAnimatable() throws {
        var rows = SparseRows<Row>(count: 6)
        rows.fill([Row(id: 0), Row(id: 1)], at: 0)
        rows.fill([Row(id: 4), Row(id: 5)], at: 4)  // rows 2 and 3 are placeholders
        let change = try rows.apply(
            [.remove(0), .add(1, Row(id: 9)), .replace(4, Row(id: 4, version: 1)), .move(from: 5, to: 2)],
            expectedCount: 6)
        #expect(rows.rows == [Row(id: 1), Row(id: 9), Row(id: 5), nil, nil, Row(id: 4, version: 1)])
        #expect(
            change
                == ListChange(
                    removed: [0], inserted: [1], reloaded: [4], moved: [.init(from: 5, to: 2)], previousCount: 6,
                    count: 6))
        #expect(throws: ClientError.self) { try rows.apply([.remove(6)], expectedCount: 5) }
        #expect(throws: ClientError.self) { try rows.apply([.remove(0)], expectedCount: 6) }
        #expect(rows.rows.count == 6, "a rejected patch changes nothing")
    }

    /// Random lists, partly loaded, through random patches in a row: after each, every loaded row
    /// is the fresh list's row at that index, no row that was loaded is lost unless removed, the
    /// change replayed as a table view would gives the new order, and loading only the pages
    /// with placeholders ends equal to the fresh list.
    @Test(arguments: 0..<4) func randomPatchesEndEqualToAFreshList(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        var nextID = 10_000
        for _ in 0..<100 {
            let count = Int.random(in: 0...60, using: &random)
            var fresh = (0..<count).map { Row(id: $0) }
            var rows = SparseRows<Row>(count: count)
            for index in 0..<count where Bool.random(using: &random) { rows.fill([fresh[index]], at: index) }
            for _ in 0..<3 {
                // The reference: each row's origin in the list before this patch (nil: added),
                // and whether it was replaced or moved.
                var tracked = fresh.indices.map { Tracked(origin: $0) }
                var operations: [ListPatch<Row>.Operation] = []
                for _ in 0..<Int.random(in: 0...12, using: &random) {
                    let kind = tracked.isEmpty ? 1 : Int.random(in: 0..<4, using: &random)
                    switch kind {
                    case 0:
                        let index = Int.random(in: 0..<fresh.count, using: &random)
                        fresh.remove(at: index)
                        tracked.remove(at: index)
                        operations.append(.remove(index))
                    case 1:
                        let index = Int.random(in: 0...fresh.count, using: &random)
                        nextID += 1
                        fresh.insert(Row(id: nextID), at: index)
                        tracked.insert(Tracked(origin: nil), at: index)
                        operations.append(.add(index, Row(id: nextID)))
                    case 2:
                        let index = Int.random(in: 0..<fresh.count, using: &random)
                        fresh[index].version += 1
                        tracked[index].replaced = true
                        operations.append(.replace(index, fresh[index]))
                    default:
                        let from = Int.random(in: 0..<fresh.count, using: &random)
                        let to = Int.random(in: 0..<fresh.count, using: &random)
                        fresh.insert(fresh.remove(at: from), at: to)
                        var moved = tracked.remove(at: from)
                        moved.moved = true
                        tracked.insert(moved, at: to)
                        operations.append(.move(from: from, to: to))
                    }
                }
                let before = rows
                let change = try rows.apply(operations, expectedCount: fresh.count)
                #expect(rows.count == fresh.count)
                for index in 0..<fresh.count {
                    let origin = tracked[index].origin
                    let wasLoaded = origin.map { before[$0] != nil } ?? false
                    if tracked[index].origin == nil || tracked[index].replaced {
                        #expect(rows[index] == fresh[index], "added or replaced row \(index) arrives with its value")
                    } else if wasLoaded {
                        #expect(rows[index] == fresh[index], "loaded row stays loaded, shifted to \(index)")
                    } else {
                        #expect(rows[index] == nil, "placeholder stays a placeholder at \(index)")
                    }
                }
                // Replayed as performBatchUpdates does: removals and moves' sources by old index,
                // then insertions and moves' targets by new index.
                var table: [Int?] = before.rows.indices.map { $0 }
                let leaving = Set(change.removed + change.moved.map(\.from))
                table = table.enumerated().filter { !leaving.contains($0.offset) }.map(\.element)
                let arriving = (change.inserted.map { ($0, Int?.none) } + change.moved.map { ($0.to, Int?($0.from)) })
                    .sorted { $0.0 < $1.0 }
                for (index, origin) in arriving { table.insert(origin, at: index) }
                let identities = tracked.map { $0.moved && $0.replaced ? nil : $0.origin }
                #expect(table == identities)
                #expect(Set(change.reloaded) == Set(tracked.filter { $0.replaced && !$0.moved }.compactMap(\.origin)))
            }
            // Later loads ask only the pages that still have placeholders, and end on the fresh list.
            let pageSize = 7
            for page in stride(from: 0, to: fresh.count, by: pageSize)
            where !rows.isLoaded(page..<min(page + pageSize, fresh.count)) {
                rows.fill(Array(fresh[page..<min(page + pageSize, fresh.count)]), at: page)
            }
            #expect(rows.rows == fresh.map { Optional($0) })
        }
    }

    struct Tracked {
        var origin: Int?
        var replaced = false
        var moved = false
    }
}

/// A seeded generator, so a failing run can be replayed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
