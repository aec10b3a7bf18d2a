import Foundation
import Testing

@testable import FolioEngine

@Suite struct SectionsTests {
    typealias Support = SectionsSupport

    static let name = try! FieldPath("name")
    static let price = try! FieldPath("price")

    /// Sections from the reference order: runs of equal reference titles.
    static func referenceSections(_ values: [Support.Value]) -> [(title: String, count: Int, offset: Int)] {
        let order = Support.referenceOrder(values, sectionRule: true, descending: false)
        var sections: [(title: String, count: Int, offset: Int)] = []
        for (position, element) in order.enumerated() {
            let title = Support.referenceSectionTitle(values[Int(element)])
            if let last = sections.last, last.title == title {
                sections[sections.count - 1].count += 1
            } else {
                sections.append((title, 1, position))
            }
        }
        return sections
    }

    @Test(arguments: [101, 102, 103, 104, 105, 106, 107, 108, 109, 110] as [UInt64])
    func alphabeticalIndexMatchesTheReference(seed: UInt64) throws {
        let (values, list) = OrderingTests.randomItems(seed: seed, count: 200 + Int(seed % 7) * 90)
        let names = values.map(\.name)
        let indexes = SnapshotIndexes(list: list, sectionKey: Self.name)
        let order = indexes.order(SortSpec(keys: [SortKey(Self.name)]))
        let sections = indexes.alphabeticalSections(order: order)
        let expected = Self.referenceSections(names)

        #expect(sections.reduce(0) { $0 + $1.count } == values.count, "seed \(seed)")
        #expect(sections.map(\.title) == expected.map(\.title), "seed \(seed)")
        #expect(sections.map(\.count) == expected.map(\.count), "seed \(seed)")
        #expect(sections.map(\.offset) == expected.map(\.offset), "seed \(seed)")
        #expect(sections.map(\.value) == sections.map(\.title), "seed \(seed)")
        // Contiguous, in title order, `#` last.
        for (a, b) in zip(sections, sections.dropFirst()) {
            #expect(a.offset + a.count == b.offset, "seed \(seed)")
            #expect(Folding.titleOrder(try #require(a.title), try #require(b.title)), "seed \(seed)")
        }
        if let hash = sections.firstIndex(where: { $0.title == "#" }) { #expect(hash == sections.count - 1) }
        // Each section's title is what beginsWith folds its title to.
        for section in sections {
            #expect(Folding.title(forBeginsWith: try #require(section.value)) == section.title, "seed \(seed)")
        }
    }

    @Test(arguments: [201, 202, 203, 204] as [UInt64])
    func walkingEverySectionVisitsEachItemOnce(seed: UInt64) throws {
        let (values, list) = OrderingTests.randomItems(seed: seed, count: 500)
        let indexes = SnapshotIndexes(list: list, sectionKey: Self.name)
        let byName = try #require(indexes.order(SortSpec(keys: [SortKey(Self.name)])))
        let byPrice = try #require(indexes.order(SortSpec(keys: [SortKey(Self.price, descending: true)])))
        let sections = indexes.alphabeticalSections(order: byName)
        for order in [byName, byPrice, nil] as [[UInt32]?] {
            var visited = [Int](repeating: 0, count: values.count)
            for section in sections {
                let title = try #require(section.title)
                let elements = indexes.elements(inSection: title, order: order)
                #expect(elements.count == section.count, "seed \(seed) \(title)")
                for element in elements {
                    visited[Int(element)] += 1
                    #expect(Support.referenceSectionTitle(values[Int(element)].name) == title, "seed \(seed)")
                }
                // In the given order: a subsequence of it.
                let positions = Dictionary(
                    uniqueKeysWithValues: (order ?? Array(0..<UInt32(values.count))).enumerated()
                        .map { ($0.element, $0.offset) })
                let inOrder = elements.map { positions[$0]! }
                #expect(inOrder == inOrder.sorted(), "seed \(seed) \(title)")
                if order == byName {
                    #expect(elements == Array(byName[section.offset..<section.offset + section.count]), "seed \(seed)")
                }
            }
            #expect(visited.allSatisfy { $0 == 1 }, "seed \(seed)")
        }
        #expect(indexes.elements(inSection: "no such title", order: byName).isEmpty)
    }

    @Test func sectionsMatchWhicheverDirectionWasBuiltFirst() throws {
        let (_, list) = OrderingTests.randomItems(seed: 301, count: 300)
        let a = SnapshotIndexes(list: list, sectionKey: Self.name)
        let b = SnapshotIndexes(list: list, sectionKey: Self.name)
        _ = b.order(try SortSpec(parsing: ["-name"]))
        let orderA = a.order(try SortSpec(parsing: ["name"]))
        let orderB = b.order(try SortSpec(parsing: ["name"]))
        #expect(a.alphabeticalSections(order: orderA) == b.alphabeticalSections(order: orderB))
    }

    @Test func otherScriptsGetTheirOwnSectionsBeforeHash() throws {
        let names = ["йога", "Ива", "anna", "日本", "42", "Йод", "ωmega", "Émile", "😀"]
        let list = Support.list(names.map { "{\"name\":\(Support.jsonString($0))}" })
        let indexes = SnapshotIndexes(list: list, sectionKey: Self.name)
        let sections = indexes.alphabeticalSections(order: nil)
        #expect(sections.map(\.title) == ["A", "E", "Ω", "И", "Й", "日", "#"])
        #expect(sections.map(\.count) == [1, 1, 1, 1, 2, 1, 2])
        #expect(sections.first { $0.title == "Й" }?.title?.unicodeScalars.map(\.value) == [0x419])
        #expect(indexes.elements(inSection: "Й", order: nil) == [0, 5])
    }

    @Test func noSectionKeyMeansNoIndex() throws {
        let indexes = SnapshotIndexes(list: Support.list([#"{"name":"a"}"#]), sectionKey: nil)
        #expect(indexes.alphabeticalSections(order: nil).isEmpty)
        #expect(indexes.elements(inSection: "A", order: nil).isEmpty)
    }

    // MARK: groupBy=FIELD and ?FIELD=value

    static let groupValues = [
        "1", "\"b\"", "1.0", "null", "true", "\"1\"", "2", "MISSING", "false", "\"B\"",
        "{\"x\":1}", "\"b\"", "1e0", "\"\\u0062\"", "true", "-0", "0",
    ]

    static func groupList() -> ItemList {
        Support.list(
            groupValues.enumerated().map { id, value in
                value == "MISSING" ? "{\"id\":\(id)}" : "{\"id\":\(id),\"price\":\(value)}"
            })
    }

    @Test func valueSectionsMergeEqualValuesAndPutNullLast() throws {
        let indexes = SnapshotIndexes(list: Self.groupList(), sectionKey: Self.name)
        let order = indexes.order(SortSpec(keys: [SortKey(Self.price)]))
        let sections = indexes.valueSections(field: Self.price, order: order)
        // Numbers, then strings (letters before `#`, "B" before "b" by exact bytes), then booleans.
        #expect(sections.map(\.title) == ["-0", "1", "2", "B", "b", "1", "false", "true", nil])
        #expect(sections.map(\.value) == sections.map(\.title))
        #expect(sections.map(\.count) == [2, 3, 1, 1, 3, 1, 1, 2, 3])
        #expect(sections.reduce(0) { $0 + $1.count } == Self.groupValues.count)
        var offset = 0
        for section in sections {
            #expect(section.offset == offset)
            offset += section.count
        }
        // In another order, a section's offset is where it first appears.
        let upstream = indexes.valueSections(field: Self.price, order: nil)
        #expect(upstream.map(\.title) == sections.map(\.title))
        #expect(upstream.map(\.offset) == [15, 0, 6, 9, 1, 5, 8, 4, 3])
    }

    @Test func filtersMatchStringsNumbersAndBooleans() throws {
        let indexes = SnapshotIndexes(list: Self.groupList(), sectionKey: Self.name)
        // "1" is a number (1, 1.0, 1e0) and a string ("1").
        #expect(indexes.elements(where: Self.price, equals: "1", order: nil) == [0, 2, 5, 12])
        #expect(indexes.elements(where: Self.price, equals: "1.00", order: nil) == [0, 2, 12])
        #expect(indexes.elements(where: Self.price, equals: "0", order: nil) == [15, 16])
        #expect(indexes.elements(where: Self.price, equals: "b", order: nil) == [1, 11, 13])
        #expect(indexes.elements(where: Self.price, equals: "B", order: nil) == [9])
        #expect(indexes.elements(where: Self.price, equals: "true", order: nil) == [4, 14])
        #expect(indexes.elements(where: Self.price, equals: "false", order: nil) == [8])
        #expect(indexes.elements(where: Self.price, equals: "null", order: nil) == [])
        #expect(indexes.elements(where: Self.price, equals: "3", order: nil) == [])
        #expect(indexes.elements(where: Self.price, equals: "", order: nil) == [])
        let byPrice = indexes.order(SortSpec(keys: [SortKey(Self.price)]))
        #expect(indexes.elements(where: Self.price, equals: "1", order: byPrice) == [0, 2, 12, 5])
        let down = indexes.order(SortSpec(keys: [SortKey(Self.price, descending: true)]))
        #expect(indexes.elements(where: Self.price, equals: "1", order: down) == [5, 0, 2, 12])
    }

    @Test(arguments: [401, 402, 403, 404] as [UInt64])
    func randomFiltersMatchTheReference(seed: UInt64) throws {
        let (values, list) = OrderingTests.randomItems(seed: seed, count: 400)
        let indexes = SnapshotIndexes(list: list, sectionKey: Self.name)
        let prices = values.map(\.price)
        let sorted = indexes.order(SortSpec(keys: [SortKey(Self.price)]))
        let sections = indexes.valueSections(field: Self.price, order: sorted)
        #expect(sections.reduce(0) { $0 + $1.count } == values.count, "seed \(seed)")
        let valueless = prices.filter {
            switch $0 {
            case .null, .missing, .composite: true
            default: false
            }
        }
        #expect(
            valueless.isEmpty || (sections.last?.title == nil && sections.last?.count == valueless.count),
            "seed \(seed)")
        for section in sections {
            guard let value = section.value else { continue }
            let matches = prices.indices.filter { index in
                switch prices[index] {
                case .string(let text): return Array(text.utf8) == Array(value.utf8)
                case .number(let text):
                    guard value.wholeMatch(of: /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/) != nil,
                        let wanted = Decimal(string: value, locale: Locale(identifier: "en_US_POSIX"))
                    else { return false }
                    return Support.decimal(text) == wanted
                case .bool(let flag): return (flag ? "true" : "false") == value
                default: return false
                }
            }.map(UInt32.init)
            #expect(indexes.elements(where: Self.price, equals: value, order: nil) == matches, "seed \(seed) \(value)")
            // Filtering in a sorted order keeps that order.
            let inOrder = indexes.elements(where: Self.price, equals: value, order: sorted)
            #expect(Set(inOrder) == Set(matches), "seed \(seed) \(value)")
            #expect(inOrder == (sorted ?? []).filter { Set(matches).contains($0) }, "seed \(seed) \(value)")
        }
    }

    @Test func retainedBytesGrowWithCachedOrders() throws {
        let (_, list) = OrderingTests.randomItems(seed: 501, count: 1000)
        let indexes = SnapshotIndexes(list: list, sectionKey: Self.name)
        #expect(indexes.retainedBytes == 0)
        let order = indexes.order(SortSpec(keys: [SortKey(Self.name)]))
        _ = indexes.alphabeticalSections(order: order)
        let one = indexes.retainedBytes
        #expect(one >= 4 * 1000 && one <= 5 * 1000 + 2048)
        _ = indexes.order(SortSpec(keys: [SortKey(Self.price)]))
        #expect(indexes.retainedBytes >= one + 4 * 1000)
    }
}

@Suite struct SectionsConcurrencyTests {
    /// Many tasks asking for the same and different indexes at once get what one caller alone gets.
    @Test func concurrentCallersAgree() async throws {
        let (_, list) = OrderingTests.randomItems(seed: 601, count: 3000)
        let name = try FieldPath("name")
        let price = try FieldPath("price")
        let alone = SnapshotIndexes(list: list, sectionKey: name)
        let expectedName = alone.order(SortSpec(keys: [SortKey(name)]))
        let expectedDown = alone.order(SortSpec(keys: [SortKey(price, descending: true)]))
        let expectedSections = alone.alphabeticalSections(order: expectedName)
        let expectedValues = alone.valueSections(field: price, order: nil)

        let shared = SnapshotIndexes(list: list, sectionKey: name)
        let results = await withTaskGroup(of: Bool.self) { group in
            for task in 0..<16 {
                group.addTask {
                    switch task % 4 {
                    case 0: return shared.order(SortSpec(keys: [SortKey(name)])) == expectedName
                    case 1: return shared.order(SortSpec(keys: [SortKey(price, descending: true)])) == expectedDown
                    case 2: return shared.alphabeticalSections(order: nil) == expectedSections
                    default: return shared.valueSections(field: price, order: nil) == expectedValues
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0 })
    }
}
