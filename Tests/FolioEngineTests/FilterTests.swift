import Foundation
import Testing

@testable import FolioEngine

/// `?FIELD=a&FIELD=b`, `[ne]`, `[gt]`, `[gte]`, `[lt]`, `[lte]` (docs/API.md, "Requests") on random lists of
/// every JSON type (missing and null values, non-ASCII strings, `1`, `1.0` and `1e0`), against
/// the slow reference of the sorting tests.
@Suite struct FilterTests {
    typealias Value = SectionsSupport.Value

    static func isNumber(_ text: String) -> Bool {
        text.range(of: #"^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$"#, options: .regularExpression) != nil
    }

    static func equal(_ value: Value, _ target: String) -> Bool {
        switch value {
        case .number(let text): isNumber(target) && SectionsSupport.decimal(text) == SectionsSupport.decimal(target)
        case .string(let text): Array(text.utf8) == Array(target.utf8)
        case .bool(let flag): target == (flag ? "true" : "false")
        default: false
        }
    }

    /// Whether `value` passes the filter, written from docs/API.md, "Requests"'s words.
    static func matches(_ value: Value, _ comparison: ListRequest.Comparison, _ targets: [String]) -> Bool {
        switch comparison {
        case .equal: return targets.contains { equal(value, $0) }
        case .notEqual: return !targets.contains { equal(value, $0) }
        default: break
        }
        let target = targets[0]
        let order: Int
        switch value {
        case .number(let text) where isNumber(target):
            let (a, b) = (SectionsSupport.decimal(text), SectionsSupport.decimal(target))
            order = a == b ? 0 : (a < b ? -1 : 1)
        case .string(let text) where !isNumber(target):
            order = SectionsSupport.compareStrings(SectionsSupport.StringKey(text), SectionsSupport.StringKey(target))
        default:
            return false
        }
        switch comparison {
        case .greater: return order > 0
        case .greaterOrEqual: return order >= 0
        case .less: return order < 0
        default: return order <= 0
        }
    }

    @Test func randomFiltersMatchTheReference() throws {
        var random = SplitMix64(seed: 0xF117_E125)
        let field = try FieldPath("v")
        for _ in 0..<60 {
            let count = 1 + Int(random.next() % 150)
            let values = (0..<count).map { _ in SectionsSupport.randomValue(&random) }
            let list = SectionsSupport.list(
                values.enumerated().map { SectionsSupport.element(id: $0.offset, fields: [("v", $0.element)]) })
            let indexes = SnapshotIndexes(list: list, sectionKey: nil)
            for _ in 0..<12 {
                let comparison = random.pick(ListRequest.Comparison.allCases)
                let many = comparison == .equal || comparison == .notEqual ? 1 + random.below(3) : 1
                let targets = (0..<many).map { _ -> String in
                    switch random.below(6) {
                    case 0, 1: random.pick(SectionsSupport.numberPool)
                    case 2: random.pick(["true", "false", "null", ""])
                    // Texts that read as numbers but are no JSON number's text: strings.
                    case 3: random.pick(["01", "-01", "00", "010", "1.", ".5", "+5", "1e", "0x10", "1.0e"])
                    default: SectionsSupport.randomName(&random)
                    }
                }
                let expected = (0..<count).filter { Self.matches(values[$0], comparison, targets) }.map(UInt32.init)
                let got = indexes.elements(where: field, comparison, targets, order: nil)
                #expect(got == expected, "\(comparison) \(targets)")
                let reversed = Array((0..<UInt32(count)).reversed())
                #expect(
                    indexes.elements(where: field, comparison, targets, order: reversed) == expected.reversed(),
                    "the view's order is kept")
            }
        }
    }
}
