/// A `Range: items=first-last` request header (inclusive bounds, RFC 9110 style with Folio's
/// `items` unit).
public struct ItemRange: Sendable, Hashable {
    public let first: Int
    public let last: Int

    public init(first: Int, last: Int) {
        precondition(first >= 0 && first <= last, "an item range needs 0 <= first <= last")
        self.first = first
        self.last = last
    }

    /// Number of items asked for.
    public var count: Int { last - first + 1 }

    /// nil when the header must be treated as absent (docs/API.md, "Range requests"): malformed,
    /// several ranges, another unit, suffix or open-ended ranges, first > last, numbers above 2^53.
    /// The unit is case-insensitive and empty list elements are skipped, as RFC 9110 asks.
    public static func parse(_ header: String) -> ItemRange? {
        let text = header.utf8
        guard let equals = text.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        let unit = header[..<equals].trimmingOWS()
        guard unit.lowercased() == "items" else { return nil }
        let specs = header[header.index(after: equals)...]
            .split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingOWS() }
            .filter { !$0.isEmpty }
        guard specs.count == 1, let spec = specs.first,
            let dash = spec.firstIndex(of: "-"),
            let first = Decimal53.parse(spec[..<dash]),
            let last = Decimal53.parse(spec[spec.index(after: dash)...]),
            first <= last
        else { return nil }
        return ItemRange(first: first, last: last)
    }
}

/// `Content-Range` values for the `items` unit.
public enum ContentRange {
    /// `items 50-74/1337`: what was actually sent, bounds inclusive.
    public static func satisfied(first: Int, last: Int, total: Int) -> String {
        "items \(first)-\(last)/\(total)"
    }

    /// `posts 0-24/319` on a `200` page of the `simplerest` dialect (docs/API.md, "Dialects"), `unit` the
    /// route's `itemsKey`; `posts */319` when the page holds no items (`*/0` for an empty list).
    public static func page(unit: String, items: Range<Int>, total: Int) -> String {
        items.isEmpty ? "\(unit) */\(total)" : "\(unit) \(items.lowerBound)-\(items.upperBound - 1)/\(total)"
    }

    /// `items */1337`: sent with 416.
    public static func unsatisfied(total: Int) -> String {
        "items */\(total)"
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    func trimmingOWS() -> SubSequence {
        var start = startIndex
        var end = endIndex
        while start < end, self[start] == " " || self[start] == "\t" { start = index(after: start) }
        while end > start {
            let before = index(before: end)
            guard self[before] == " " || self[before] == "\t" else { break }
            end = before
        }
        return self[start..<end]
    }
}
