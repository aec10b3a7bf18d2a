import Foundation
import Testing

@testable import FolioEngine

/// Sort keys, `beginsWith`, a filter and `q` in one request (docs/API.md, "Section index" and "Requests"), chained as
/// the gateway chains them, against the slow references of the sorting, filter and search tests.
@Suite struct CombinedQueryTests {
    typealias Support = SectionsSupport

    @Test(arguments: [31, 32, 33, 34, 35, 36] as [UInt64])
    func everythingCombinesLikeTheReference(seed: UInt64) throws {
        let (values, list) = OrderingTests.randomItems(seed: seed, count: 250)
        let (name, price) = (OrderingTests.name, OrderingTests.price)
        let indexes = SnapshotIndexes(list: list, sectionKey: name)
        let titles = indexes.alphabeticalSections(order: nil).compactMap(\.title)
        let nameKeys = values.map { Support.Key($0.name) }
        let priceKeys = values.map { Support.Key($0.price) }
        var random = SplitMix64(seed: seed &* 7919)
        for _ in 0..<25 {
            // The request.
            var keys = [SortKey(random.chance(50) ? name : price, descending: random.chance(50))]
            if random.chance(50) {
                keys.append(SortKey(keys[0].field == name ? price : name, descending: random.chance(50)))
            }
            let title = random.chance(30) ? random.pick(titles) : nil
            var filter: (ListRequest.Comparison, [String])?
            if random.chance(60) {
                let comparison = random.pick(ListRequest.Comparison.allCases)
                let many = comparison == .equal || comparison == .notEqual ? 1 + random.below(2) : 1
                filter = (
                    comparison,
                    (0..<many).map { _ in
                        random.chance(60) ? random.pick(Support.numberPool) : Support.randomName(&random)
                    }
                )
            }
            var query: String?
            if random.chance(40) {
                let scalars = Array(Support.randomName(&random).unicodeScalars)
                query = scalars.isEmpty ? "" : String(String.UnicodeScalarView(scalars.prefix(1 + random.below(2))))
            }

            // The engine, chained as ListSelection does.
            var order = indexes.order(SortSpec(keys: keys))
            if let title { order = indexes.elements(inSection: title, order: order) }
            if let (comparison, targets) = filter {
                order = indexes.elements(where: price, comparison, targets, order: order)
            }
            if let query { order = indexes.elements(matching: query, in: [name], order: order) }
            let got = order ?? Array(0..<UInt32(values.count))

            // The reference: sort by the keys in turn (ties in upstream order), then keep.
            let sorted = Array(0..<values.count).sorted { x, y in
                for key in keys {
                    let onName = key.field == name
                    let result = Support.compare(
                        onName ? nameKeys[x] : priceKeys[x], onName ? nameKeys[y] : priceKeys[y],
                        sectionRule: onName, descending: key.descending)
                    if result != 0 { return result < 0 }
                }
                return x < y
            }
            let expected = sorted.filter { row in
                if let title, Support.referenceSectionTitle(values[row].name) != title { return false }
                if let (comparison, targets) = filter, !FilterTests.matches(values[row].price, comparison, targets) {
                    return false
                }
                if let query, !Support.referenceFold(query).isEmpty {
                    guard case .string(let text) = values[row].name, SearchTests.contains(text, query) else {
                        return false
                    }
                }
                return true
            }.map(UInt32.init)
            let sortText = keys.map { ($0.descending ? "-" : "") + $0.field.text }.joined(separator: ",")
            let described =
                "sort \(sortText) beginsWith \(title ?? "-") filter \(String(describing: filter)) q \(query ?? "-")"
            #expect(got == expected, "\(described)")
        }
    }
}
