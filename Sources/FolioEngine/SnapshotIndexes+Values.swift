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
        let sorted = entry(OrderID(field: field, descending: false, crossType: true))
        let counts = sorted.tierCounts
        let numbers = 0..<counts[0]
        let strings = numbers.upperBound..<numbers.upperBound + counts[1]
        let booleans = strings.upperBound..<strings.upperBound + counts[2]
        let target = Array(value.utf8)
        var spans: [Range<Int>] = []
        list.bytes.withUnsafeBufferPointer { bytes in
            func valueStart(_ position: Int) -> Int {
                let element = Int(sorted.order[position])
                return field.valueStart(in: bytes, list.range(of: element)) ?? 0
            }
            target.withUnsafeBufferPointer { wanted in
                if let number = DecimalNumber(wanted, 0, wanted.count), number.end == wanted.count {
                    spans.append(
                        equalRange(numbers) { position in
                            let start = valueStart(position)
                            let element = DecimalNumber(bytes, start, bytes.count) ?? .zero
                            return DecimalNumber.compare(element, bytes, number, wanted)
                        })
                }
            }
            let key = StringOrderKey(exact: target)
            spans.append(
                equalRange(strings) { position in
                    let start = valueStart(position)
                    let key2 = StringOrderKey(exact: Self.decodedString(bytes, start))
                    return key2 < key ? -1 : (key < key2 ? 1 : 0)
                })
            if value == "true" || value == "false" {
                let wantTrue = value == "true"
                spans.append(
                    equalRange(booleans) { position in
                        let isTrue = bytes[valueStart(position)] == UInt8(ascii: "t")
                        return isTrue == wantTrue ? 0 : (isTrue ? 1 : -1)
                    })
            }
        }
        return select(spans.filter { !$0.isEmpty }, of: sorted.order, in: order)
    }

    /// The positions in `range` where `compare` (element versus target) is 0; `compare` must be
    /// non-decreasing over the range.
    private func equalRange(_ range: Range<Int>, _ compare: (Int) -> Int) -> Range<Int> {
        func firstPosition(where predicate: (Int) -> Bool) -> Int {
            var low = range.lowerBound
            var high = range.upperBound
            while low < high {
                let mid = (low + high) / 2
                if predicate(compare(mid)) { high = mid } else { low = mid + 1 }
            }
            return low
        }
        let lower = firstPosition { $0 >= 0 }
        let upper = firstPosition { $0 > 0 }
        return lower..<max(lower, upper)
    }

    private func valueGroups(field: FieldPath, sorted: OrderEntry) -> [Section] {
        if let cached = state.withLock({ $0.valueGroups[field] }) { return cached }
        let counts = sorted.tierCounts
        let valued = counts[0] + counts[1] + counts[2]
        var groups: [Section] = []
        list.bytes.withUnsafeBufferPointer { bytes in
            var start = 0
            while start < valued {
                var end = start + 1
                while end < valued, sorted.ties[end] { end += 1 }
                let element = Int(sorted.order[start])
                let text = field.valueStart(in: bytes, list.range(of: element)).flatMap { Self.text(bytes, $0) }
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
