import Testing

@testable import FolioEngine

/// The pieces of the move planning: a longest increasing run and slot ranks.
@Suite struct IncreasingRunTests {
    @Test(
        "a longest increasing run",
        arguments: [
            ([], 0), ([5], 1), ([1, 2, 3], 3), ([3, 2, 1], 1), ([2, 0, 1], 2), ([0, 4, 1, 2, 5, 3], 4),
            ([9, 1, 8, 2, 7, 3, 6, 4, 5], 5),
        ] as [([Int32], Int)])
    func table(_ values: [Int32], _ length: Int) {
        let (members, found) = IncreasingRun.members(of: values)
        #expect(found == length && members.setCount == length)
        let chosen = values.indices.filter { members[$0] }.map { values[$0] }
        #expect(chosen == chosen.sorted())
    }

    @Test("random sequences against the quadratic answer")
    func random() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<300 {
            let values = Array(0..<Int32(rng.below(60))).shuffled(using: &rng)
            var best = [Int](repeating: 1, count: values.count)
            for i in values.indices {
                for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
            }
            let (members, length) = IncreasingRun.members(of: values)
            #expect(length == (best.max() ?? 0))
            let chosen = values.indices.filter { members[$0] }.map { values[$0] }
            #expect(chosen.count == length && chosen == chosen.sorted())
        }
    }

    @Test("ranks count the occupied slots before one, through changes")
    func ranks() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<50 {
            var occupied = (0..<rng.below(40)).map { _ in rng.chance(50) }
            var tree = RankTree(occupied: occupied)
            for _ in 0..<20 where !occupied.isEmpty {
                let slot = rng.below(occupied.count)
                tree.change(slot, by: occupied[slot] ? -1 : 1)
                occupied[slot].toggle()
                for probe in 0...occupied.count {
                    #expect(tree.rank(probe) == occupied[..<probe].filter { $0 }.count)
                }
            }
        }
    }
}
