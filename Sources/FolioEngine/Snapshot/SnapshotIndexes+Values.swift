extension SnapshotIndexes {
    /// `groupBy=FIELD` (docs/API.md, "Section index"): one section per distinct value — strings
    /// compared decoded, numbers by exact decimal value (`1` and `1.0` are one section, titled by
    /// the first seen in upstream order), booleans as `true`/`false` — in value order (numbers <
    /// strings < booleans, each ordered as `?sort=FIELD` orders them), then one section with a nil
    /// title for missing, null, objects and arrays (no `?FIELD=` value selects those). Offsets are
    /// where each section first appears in `order` (upstream order when nil), which for the order
    /// of `?sort=FIELD` is where it starts.
    public func valueSections(field: FieldPath, order: [UInt32]?) -> [Section] {
        let sorted = entry(OrderID(field: field, descending: false, crossType: true))
        let groups = valueGroups(field: field, sorted: sorted)
        if let order, sameStorage(order, sorted.order) { return groups }
        guard !groups.isEmpty else { return [] }
        var groupOf = [UInt32](repeating: 0, count: list.count)
        for (index, group) in groups.enumerated() {
            for position in group.offset..<group.offset + group.count {
                groupOf[Int(sorted.order[position])] = UInt32(index)
            }
        }
        var firstPosition = [Int](repeating: -1, count: groups.count)
        var found = 0
        for position in 0..<list.count where found < groups.count {
            let group = Int(groupOf[Int(order?[position] ?? UInt32(position))])
            if firstPosition[group] < 0 {
                firstPosition[group] = position
                found += 1
            }
        }
        return zip(groups, firstPosition).map { group, offset in
            Section(title: group.title, value: group.value, count: group.count, offset: offset)
        }
    }

    /// Element indices, in `order` (upstream order when nil), matching `?FIELD=value`
    /// (docs/API.md, "Section index"):
    /// strings equal to `value`, numbers equal to it by decimal value when it is a JSON number,
    /// booleans whose text it is.
    public func elements(where field: FieldPath, equals value: String, order: [UInt32]?) -> [UInt32] {
        elements(where: field, .equal, [value], order: order)
    }

    /// Element indices, in `order` (upstream order when nil), whose `field` matches a filter
    /// (docs/API.md, "Requests"): `.equal` any of `values` (as `?FIELD=value`); `.notEqual` none of them
    /// (missing and null included); the orderings one value each: a number compares with
    /// numbers by exact decimal value, anything else with strings in the string order of
    /// sorting; missing, null and values of the other type never match. Each answer is a few
    /// binary searches in the field's sorted order (built once per snapshot) and a copy.
    public func elements(
        where field: FieldPath, _ comparison: ListRequest.Comparison, _ values: [String], order: [UInt32]?
    ) -> [UInt32] {
        let sorted = entry(OrderID(field: field, descending: false, crossType: true))
        var spans: [Range<Int>] = []
        switch comparison {
        case .equal, .notEqual:
            for value in values { spans += self.spans(sorted, field: field, value) { $0 == 0 } }
            if comparison == .notEqual { spans = Self.complement(Self.merged(spans), in: 0..<sorted.order.count) }
        case .greater, .greaterOrEqual, .less, .lessOrEqual:
            guard let value = values.first else { return [] }
            spans = self.spans(sorted, field: field, value, numbersAndStringsOnly: true) { compare in
                switch comparison {
                case .greater: compare > 0
                case .greaterOrEqual: compare >= 0
                case .less: compare < 0
                default: compare <= 0
                }
            }
        }
        return select(Self.merged(spans), of: sorted.order, in: order)
    }

    /// The positions of `sorted` whose value `matches` (given the element-versus-`value`
    /// comparison): in the numbers tier when `value` is a JSON number, in the strings tier, and
    /// (equality only) in the booleans tier. `matches` must select a contiguous run of each
    /// tier (an equality, or one side of a bound).
    private func spans(
        _ sorted: OrderEntry, field: FieldPath, _ value: String, numbersAndStringsOnly: Bool = false,
        matches: (Int) -> Bool
    ) -> [Range<Int>] {
        let counts = sorted.tierCounts
        let numbers = 0..<counts[0]
        let strings = numbers.upperBound..<numbers.upperBound + counts[1]
        let booleans = strings.upperBound..<strings.upperBound + counts[2]
        let target = Array(value.utf8)
        var spans: [Range<Int>] = []
        let firstMemberWins = membersNamedOnce
        list.bytes.withUnsafeBufferPointer { bytes in
            func valueStart(_ position: Int) -> Int {
                let element = Int(sorted.order[position])
                return field.valueStart(in: bytes, list.range(of: element), firstMemberWins: firstMemberWins) ?? 0
            }
            let isNumber = target.withUnsafeBufferPointer { wanted in
                guard let number = DecimalNumber(wanted, 0, wanted.count), number.end == wanted.count else {
                    return false
                }
                spans.append(
                    Self.run(numbers, matches) { position in
                        let element = DecimalNumber(bytes, valueStart(position), bytes.count) ?? .zero
                        return DecimalNumber.compare(element, bytes, number, wanted)
                    })
                return true
            }
            // A bound that is a number compares with numbers only.
            guard !(numbersAndStringsOnly && isNumber) else { return }
            let key = StringOrderKey(exact: target)
            spans.append(
                Self.run(strings, matches) { position in
                    let element = StringOrderKey(exact: Self.decodedString(bytes, valueStart(position)))
                    return element < key ? -1 : (key < element ? 1 : 0)
                })
            if !numbersAndStringsOnly, value == "true" || value == "false" {
                let wantTrue = value == "true"
                spans.append(
                    Self.run(booleans, matches) { position in
                        let isTrue = bytes[valueStart(position)] == UInt8(ascii: "t")
                        return isTrue == wantTrue ? 0 : (isTrue ? 1 : -1)
                    })
            }
        }
        return spans.filter { !$0.isEmpty }
    }

    /// The contiguous run of `range` whose comparison (element versus target, non-decreasing
    /// over the range) `matches`: its first matching position through its last.
    private static func run(_ range: Range<Int>, _ matches: (Int) -> Bool, _ compare: (Int) -> Int) -> Range<Int> {
        func firstPosition(in range: Range<Int>, where predicate: (Int) -> Bool) -> Int {
            var low = range.lowerBound
            var high = range.upperBound
            while low < high {
                let mid = (low + high) / 2
                if predicate(compare(mid).signum()) { high = mid } else { low = mid + 1 }
            }
            return low
        }
        // The matching comparisons are one interval of -1, 0, 1: find where it starts and ends.
        let lowest = [-1, 0, 1].first(where: matches)
        let highest = [1, 0, -1].first(where: matches)
        guard let lowest, let highest else { return range.lowerBound..<range.lowerBound }
        let lower = firstPosition(in: range) { $0 >= lowest }
        let upper = firstPosition(in: range) { $0 > highest }
        return lower..<max(lower, upper)
    }

    /// `spans` sorted, overlapping and touching ones joined (two values may select one run:
    /// `1` and `1.0`).
    static func merged(_ spans: [Range<Int>]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) where !span.isEmpty {
            if let last = result.last, span.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
            } else {
                result.append(span)
            }
        }
        return result
    }

    /// The positions of `whole` outside the sorted, disjoint `spans`.
    static func complement(_ spans: [Range<Int>], in whole: Range<Int>) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var start = whole.lowerBound
        for span in spans {
            if span.lowerBound > start { result.append(start..<span.lowerBound) }
            start = max(start, span.upperBound)
        }
        if start < whole.upperBound { result.append(start..<whole.upperBound) }
        return result
    }

    private func valueGroups(field: FieldPath, sorted: OrderEntry) -> [Section] {
        if let cached = state.withLock({ $0.valueGroups[field] }) { return cached }
        let counts = sorted.tierCounts
        let valued = counts[0] + counts[1] + counts[2]
        var groups: [Section] = []
        let firstMemberWins = membersNamedOnce
        list.bytes.withUnsafeBufferPointer { bytes in
            var start = 0
            while start < valued {
                var end = start + 1
                while end < valued, sorted.ties[end] { end += 1 }
                let element = Int(sorted.order[start])
                let text = field.valueStart(in: bytes, list.range(of: element), firstMemberWins: firstMemberWins)
                    .flatMap { Self.text(bytes, $0) }
                groups.append(Section(title: text, value: text, count: end - start, offset: start))
                start = end
            }
        }
        if valued < list.count {
            groups.append(Section(title: nil, value: nil, count: list.count - valued, offset: valued))
        }
        return state.withLock { state in
            if let stored = state.valueGroups[field] { return stored }
            state.store(groups, for: field)
            return groups
        }
    }

    /// A section title for a scalar value: the decoded string, the number as written, or
    /// `true`/`false`; nil for null, objects and arrays.
    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> String? {
        switch bytes[start] {
        case JSONScan.quote: return String(decoding: decodedString(bytes, start), as: UTF8.self)
        case UInt8(ascii: "t"): return "true"
        case UInt8(ascii: "f"): return "false"
        case UInt8(ascii: "n"), UInt8(ascii: "{"), UInt8(ascii: "["): return nil
        default:
            let end = JSONScan.skipValue(bytes, start, bytes.count) ?? start
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
    }

    /// The decoded contents of the string starting at `start`.
    private static func decodedString(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> [UInt8] {
        guard bytes[start] == JSONScan.quote, let (after, escaped) = JSONScan.skipString(bytes, start, bytes.count)
        else { return [] }
        let contents = start + 1..<after - 1
        return escaped ? JSONScan.unescape(bytes, contents) : Array(bytes[contents])
    }
}
