import Foundation
import Testing

@testable import FolioEngine

@Suite struct OrderingTests {
    typealias Support = SectionsSupport

    static let name = try! FieldPath("name")
    static let price = try! FieldPath("price")

    /// Random lists of `name` and `price` with every kind of value, each escaped or not.
    static func randomItems(seed: UInt64, count: Int, stringsOnly: Bool = false)
        -> (values: [(name: Support.Value, price: Support.Value)], list: ItemList)
    {
        var random = SplitMix64(seed: seed)
        var values: [(name: Support.Value, price: Support.Value)] = []
        var elements: [String] = []
        for id in 0..<count {
            let name = Support.randomValue(&random, stringsOnly: stringsOnly)
            let price = Support.randomValue(&random)
            values.append((name, price))
            var members = ["\"id\":\(id)"]
            if let json = name.json {
                // Same value, escaped differently: must sort as if written plainly.
                if case .string(let text) = name, random.next() % 3 == 0 {
                    members.append("\"name\":" + Support.jsonString(text, escapeAll: true))
                } else {
                    members.append("\"name\":" + json)
                }
            }
            if let json = price.json {
                members.insert("\"price\" : " + json, at: random.next() % 2 == 0 ? 0 : members.count)
            }
            elements.append("{" + members.joined(separator: ",") + "}")
        }
        return (values, Support.list(elements))
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func sectionKeyOrderMatchesTheReference(seed: UInt64) throws {
        let (values, list) = Self.randomItems(seed: seed, count: 300 + Int(seed) * 37)
        let indexes = SnapshotIndexes(list: list, sectionKey: Self.name)
        let names = values.map(\.name)
        for descending in [false, true] {
            let order = indexes.order(SortSpec(keys: [SortKey(Self.name, descending: descending)]))
            let expected = Support.referenceOrder(names, sectionRule: true, descending: descending)
            #expect(order == expected, "seed \(seed), descending \(descending)")
        }
    }

    @Test(arguments: [11, 12, 13, 14, 15, 16] as [UInt64])
    func crossTypeOrderMatchesTheReference(seed: UInt64) throws {
        let (values, list) = Self.randomItems(seed: seed, count: 400)
        let indexes = SnapshotIndexes(list: list, sectionKey: Self.name)
        let prices = values.map(\.price)
        for descending in [false, true] {
            let order = indexes.order(SortSpec(keys: [SortKey(Self.price, descending: descending)]))
            let expected = Support.referenceOrder(prices, sectionRule: false, descending: descending)
            #expect(order == expected, "seed \(seed), descending \(descending)")
        }
        // The name field, when it is not the sectionKey, also follows the cross-type rule.
        let plain = SnapshotIndexes(list: list, sectionKey: nil)
        #expect(
            plain.order(SortSpec(keys: [SortKey(Self.name)]))
                == Support.referenceOrder(values.map(\.name), sectionRule: false, descending: false), "seed \(seed)")
    }

    /// Orders derived from the opposite direction equal orders built directly.
    @Test(arguments: [21, 22, 23] as [UInt64])
    func derivedDirectionEqualsBuiltDirection(seed: UInt64) throws {
        let (_, list) = Self.randomItems(seed: seed, count: 500)
        for field in [Self.name, Self.price] {
            let ascendingFirst = SnapshotIndexes(list: list, sectionKey: Self.name)
            let descendingFirst = SnapshotIndexes(list: list, sectionKey: Self.name)
            let up = SortSpec(keys: [SortKey(field)])
            let down = SortSpec(keys: [SortKey(field, descending: true)])
            let a = (ascendingFirst.order(up), ascendingFirst.order(down))
            let b = (descendingFirst.order(down), descendingFirst.order(up))
            #expect(a.0 == b.1, "seed \(seed) \(field)")
            #expect(a.1 == b.0, "seed \(seed) \(field)")
        }
    }

    @Test(arguments: [31, 32, 33] as [UInt64])
    func descendingIsTheReverseForDistinctKeys(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var seen = Set<[UInt8]>()
        var elements: [String] = []
        while elements.count < 400 {
            let name = Support.randomName(&random) + String(random.next() % 1000)
            guard seen.insert(Array(name.utf8)).inserted else { continue }
            elements.append("{\"name\":\(Support.jsonString(name))}")
        }
        let indexes = SnapshotIndexes(list: Support.list(elements), sectionKey: Self.name)
        let up = try #require(indexes.order(try SortSpec(parsing: ["name"])))
        let down = try #require(indexes.order(try SortSpec(parsing: ["-name"])))
        #expect(Array(up.reversed()) == down, "seed \(seed)")
    }

    @Test func numbersCompareByExactDecimalValue() throws {
        let texts = [
            "9007199254740993", "9007199254740992", "1e3", "999.5", "-0", "0", "1.0", "1", "-1e400",
            "1e400", "2e399", "-1", "0.1e1", "12345678901234567890123", "12345678901234567890122", "-0.0",
        ]
        let list = Support.list(texts.map { "{\"v\":\($0)}" })
        let indexes = SnapshotIndexes(list: list, sectionKey: nil)
        let order = try #require(indexes.order(try SortSpec(parsing: ["v"])))
        let sorted = order.map { texts[Int($0)] }
        #expect(
            sorted == [
                "-1e400", "-1", "-0", "0", "-0.0", "1.0", "1", "0.1e1", "999.5", "1e3",
                "9007199254740992", "9007199254740993", "12345678901234567890122",
                "12345678901234567890123", "2e399", "1e400",
            ])
        // Ties keep upstream order in both directions.
        let down = try #require(indexes.order(try SortSpec(parsing: ["-v"])))
        #expect(
            down.map { texts[Int($0)] } == [
                "1e400", "2e399", "12345678901234567890123", "12345678901234567890122",
                "9007199254740993", "9007199254740992", "1e3", "999.5",
                "1.0", "1", "0.1e1", "-0", "0", "-0.0", "-1", "-1e400",
            ])
    }

    @Test func crossTypeTiersAndNullsStayLast() throws {
        let values = ["null", "true", "\"b\"", "[1]", "2", "false", "{\"a\":1}", "\"a\"", "1", "MISSING"]
        let list = Support.list(values.map { $0 == "MISSING" ? "{}" : "{\"v\":\($0)}" })
        let indexes = SnapshotIndexes(list: list, sectionKey: nil)
        let up = try #require(indexes.order(try SortSpec(parsing: ["v"]))).map { values[Int($0)] }
        #expect(up == ["1", "2", "\"a\"", "\"b\"", "false", "true", "[1]", "{\"a\":1}", "null", "MISSING"])
        let down = try #require(indexes.order(try SortSpec(parsing: ["-v"]))).map { values[Int($0)] }
        #expect(down == ["[1]", "{\"a\":1}", "true", "false", "\"b\"", "\"a\"", "2", "1", "null", "MISSING"])
    }

    @Test func sectionKeyRulePutsNonStringsAfterStringsInUpstreamOrder() throws {
        let values = ["3", "null", "\"b\"", "true", "MISSING", "\"a\"", "1", "{\"x\":1}"]
        let list = Support.list(values.map { $0 == "MISSING" ? "{}" : "{\"name\":\($0)}" })
        let indexes = SnapshotIndexes(list: list, sectionKey: Self.name)
        let up = try #require(indexes.order(try SortSpec(parsing: ["name"]))).map { values[Int($0)] }
        #expect(up == ["\"a\"", "\"b\"", "3", "true", "1", "{\"x\":1}", "null", "MISSING"])
    }

    @Test func jsonPointerFieldsReadNestedValues() throws {
        let elements = [
            #"{"a":{"b":"zeta"},"tags":["x","b"]}"#, #"{"a":{"c":1,"b":"alpha"},"tags":["y","a"]}"#,
            #"{"a":{"b":null}}"#, #"{"a":[{"b":"nope"}]}"#, #"{"a":{"b":"Mid"},"tags":["z"]}"#,
            #"{"a~b":{"c/d":"beta"}}"#, #"{"a~b":{"c/d":"alpha"}}"#,
        ]
        let indexes = SnapshotIndexes(list: Support.list(elements), sectionKey: nil)
        #expect(indexes.order(try SortSpec(parsing: ["/a/b"])) == [1, 4, 0, 2, 3, 5, 6])
        #expect(indexes.order(try SortSpec(parsing: ["/tags/1"])) == [1, 0, 2, 3, 4, 5, 6])
        #expect(indexes.order(try SortSpec(parsing: ["/a~0b/c~1d"])) == [6, 5, 0, 1, 2, 3, 4])
        // A top-level member name may contain `/` when the field does not start with one.
        let slash = SnapshotIndexes(list: Support.list([#"{"a/b":2}"#, #"{"a/b":1}"#]), sectionKey: nil)
        #expect(slash.order(try SortSpec(parsing: ["a/b"])) == [1, 0])
    }

    @Test func escapedStringsSortAsTheirDecodedText() throws {
        let elements = [
            #"{"name":"Zed"}"#, #"{"name":"\u00c9mile"}"#, #"{"name":"Émile"}"#, #"{"name":"Emile"}"#,
            #"{"name":"\u0045mile"}"#, #"{"n\u0061me":"Ann"}"#,
        ]
        let indexes = SnapshotIndexes(list: Support.list(elements), sectionKey: try FieldPath("name"))
        // Folded keys tie at EMILE; exact bytes put "Emile" before "Émile"; equal texts keep upstream order.
        #expect(indexes.order(try SortSpec(parsing: ["name"])) == [5, 3, 4, 1, 2, 0])
        let sections = indexes.alphabeticalSections(order: nil)
        #expect(sections.map(\.title) == ["A", "E", "Z"])
        #expect(sections.map(\.count) == [1, 4, 1])
    }

    @Test func duplicateMembersUseTheLastOne() throws {
        let indexes = SnapshotIndexes(list: Support.list([#"{"v":1,"v":9}"#, #"{"v":5}"#]), sectionKey: nil)
        #expect(indexes.order(try SortSpec(parsing: ["v"])) == [1, 0])
    }

    @Test(arguments: [41, 42, 43] as [UInt64])
    func multiKeySortMatchesTheReference(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let categories = ["a", "b", "B", "é"]
        var rows: [(Support.Value, Support.Value, Support.Value)] = []
        var elements: [String] = []
        for id in 0..<600 {
            let category: Support.Value =
                random.next() % 10 == 0
                ? .missing
                : .string(categories[Int(random.next() % UInt64(categories.count))])
            let price: Support.Value = random.next() % 8 == 0 ? .null : .number(String(random.next() % 20))
            let name = Support.randomValue(&random)
            rows.append((category, price, name))
            elements.append(
                Support.element(id: id, fields: [("category", category), ("price", price), ("name", name)]))
        }
        let list = Support.list(elements)
        let indexes = SnapshotIndexes(list: list, sectionKey: Self.name)
        let order = indexes.order(try SortSpec(parsing: ["category", "-price", "name"]))
        let keys = rows.map { (Support.Key($0.0), Support.Key($0.1), Support.Key($0.2)) }
        /// The reference: `fields` (0 category, 1 price, 2 name) compared in turn, then position.
        func expected(_ fields: [(index: Int, descending: Bool)]) -> [UInt32] {
            Array(0..<UInt32(rows.count)).sorted { x, y in
                let (a, b) = (keys[Int(x)], keys[Int(y)])
                for (index, descending) in fields {
                    let (p, q) = [(a.0, b.0), (a.1, b.1), (a.2, b.2)][index]
                    let result = Support.compare(p, q, sectionRule: index == 2, descending: descending)
                    if result != 0 { return result < 0 }
                }
                return x < y
            }
        }
        let categoryPriceName = expected([(0, false), (1, true), (2, false)])
        #expect(order == categoryPriceName, "seed \(seed)")
        // Cached: the same storage comes back.
        let again = try #require(indexes.order(try SortSpec(parsing: ["category", "-price", "name"])))
        #expect(sameStorage(again, try #require(order)))

        // Both ways of building it agree: from single-field orders (taken above: the first key
        // ties most rows) and by refining each group of ties.
        let base = indexes.entry(.init(field: try FieldPath("category"), descending: false))
        let refined = OrderBuilder.refine(
            list: list, base: base,
            keys: [(SortKey(Self.price, descending: true), .crossType), (SortKey(Self.name), .sectionKey)])
        #expect(refined == categoryPriceName, "seed \(seed)")
        // A first key with few ties refines, unless the further keys' orders are already built.
        let fresh = SnapshotIndexes(list: list, sectionKey: Self.name)
        #expect(fresh.order(try SortSpec(parsing: ["name", "-price"])) == expected([(2, false), (1, true)]))
        _ = fresh.order(try SortSpec(parsing: ["price"]))
        #expect(fresh.order(try SortSpec(parsing: ["-name", "-price"])) == expected([(2, true), (1, true)]))
    }

    /// A list large enough that the keys' single-field orders are built in parallel (asked on a
    /// fill worker, as the gateway asks).
    @Test func aSeveralKeyOrderOfALargeListBuildsItsKeysInParallelAndMatches() async throws {
        var random = SplitMix64(seed: 61)
        let count = SnapshotIndexes.parallelOrderCount + 1_000
        var rows: [(category: Int, price: Int)] = []
        var elements: [String] = []
        for id in 0..<count {
            let row = (category: Int(random.next() % 4), price: Int(random.next() % 500))
            rows.append(row)
            elements.append(#"{"id":\#(id),"category":"c\#(row.category)","price":\#(row.price).5}"#)
        }
        let indexes = SnapshotIndexes(list: Support.list(elements), sectionKey: nil)
        let sort = try SortSpec(parsing: ["-category", "price"])
        let order = await FillWorkers.shared.run { indexes.order(sort) }
        let expected = Array(0..<UInt32(count)).sorted { x, y in
            let (a, b) = (rows[Int(x)], rows[Int(y)])
            if a.category != b.category { return a.category > b.category }
            if a.price != b.price { return a.price < b.price }
            return x < y
        }
        #expect(order == expected)
    }

    @Test func upstreamSortIsNil() throws {
        let indexes = SnapshotIndexes(list: Support.list(["{}"]), sectionKey: nil)
        #expect(indexes.order(.upstream) == nil)
        #expect(indexes.order(try SortSpec(parsing: [])) == nil)
    }

    @Test func sortSpecParsing() throws {
        let spec = try SortSpec(parsing: ["name", "-price", "/a/b", "-/c"])
        #expect(spec.keys.map(\.field.text) == ["name", "price", "/a/b", "/c"])
        #expect(spec.keys.map(\.descending) == [false, true, false, true])
        #expect(throws: FolioError.self) { try SortSpec(parsing: ["-"]) }
        #expect(throws: FolioError.self) { try SortSpec(parsing: [""]) }
        #expect(throws: FolioError.self) { try FieldPath("/a~2") }
        #expect(throws: FolioError.self) { try FieldPath("/a~") }
        #expect(try FieldPath("name") == FieldPath("/name"))
        #expect(try FieldPath("a/b") != FieldPath("/a/b"))
    }

    @Test func emptyListHasNoOrderIssues() throws {
        let indexes = SnapshotIndexes(list: .empty, sectionKey: Self.name)
        #expect(indexes.order(try SortSpec(parsing: ["name"])) == [])
        #expect(indexes.alphabeticalSections(order: []) == [])
        #expect(indexes.valueSections(field: Self.price, order: nil) == [])
        #expect(indexes.elements(inSection: "A", order: nil) == [])
        #expect(indexes.elements(where: Self.price, equals: "1", order: nil) == [])
    }
}

@Suite struct OrderingLongPrefixTests {
    typealias Support = SectionsSupport

    /// Runs of names sharing long folded prefixes go through the later radix levels and the depth
    /// cap; they must still sort exactly like the reference.
    @Test(arguments: [51, 52] as [UInt64])
    func longSharedPrefixesSortLikeTheReference(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        // Variation right at every chunk boundary (the first key holds 5 to 7 bytes of the rest).
        let prefixes = [
            "Abcdef", "Abcdefg", "abcdefgh", "Ábcdefghi", "Abcdefghijklmn", "Abcdefghijklmnop",
            "Abcdefghijklmnopq", "Alexander Hamilton of ", "alexander hamilton of ", "Álexander Hamilton of ",
            String(repeating: "abcdefgh", count: 34), String(repeating: "ABCDEFGH", count: 34) + "é",
        ]
        var values: [Support.Value] = []
        var elements: [String] = []
        for id in 0..<1200 {
            var name = prefixes[Int(random.next() % UInt64(prefixes.count))]
            for _ in 0..<Int(random.next() % 12) {
                name += ["a", "B", "é", "1", " ", "\u{0}", "z"][Int(random.next() % 7)]
            }
            let value: Support.Value = random.next() % 50 == 0 ? .number(String(id)) : .string(name)
            values.append(value)
            elements.append(Support.element(id: id, fields: [("name", value)]))
        }
        let list = Support.list(elements)
        let name = try FieldPath("name")
        for sectionKey in [name, nil] as [FieldPath?] {
            for descending in [false, true] {
                let indexes = SnapshotIndexes(list: list, sectionKey: sectionKey)
                let order = indexes.order(SortSpec(keys: [SortKey(name, descending: descending)]))
                let expected = Support.referenceOrder(values, sectionRule: sectionKey != nil, descending: descending)
                #expect(order == expected, "seed \(seed) sectionKey \(sectionKey != nil) descending \(descending)")
            }
        }
    }
}
