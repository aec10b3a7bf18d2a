extension SnapshotIndexes {
    /// Element indices, in `order` (upstream order when nil), where at least one of `fields` is
    /// a string containing `query`, both folded as sorting folds (docs/API.md, "Requests": `q=orst` finds
    /// `Ørsted`). An empty query keeps everything. Each field is folded once per snapshot; each
    /// distinct query's answer is kept (4 bytes per matching element, the last
    /// `searchesKept` queries), so asking again costs a lookup.
    public func elements(matching query: String, in fields: [FieldPath], order: [UInt32]?) -> [UInt32]? {
        let needle = FoldedKey(query).bytes
        guard !needle.isEmpty else { return order }
        let key = SearchKey(folded: needle, fields: fields)
        let matches: [UInt32]
        if let cached = state.withLock({ $0.searches.get(key) }) {
            matches = cached
        } else {
            var found = BitVector(count: list.count)
            for field in columnsFirstUnclaimed(fields) { column(field).mark(containing: needle, in: &found) }
            var elements: [UInt32] = []
            for element in 0..<list.count where found[element] { elements.append(UInt32(element)) }
            state.withLock { $0.searches.store(elements, for: key) }
            matches = elements
        }
        guard let order else { return matches }
        if matches.count == list.count { return order }
        var member = BitVector(count: list.count)
        for element in matches { member[Int(element)] = true }
        return order.filter { member[Int($0)] }
    }

    /// Folds `fields` now, one after the other (a fill has it done in the background, on one
    /// fill worker, so that the first `?q=` only scans and a request that builds something
    /// else finds the other worker free). A `?q=` that comes meanwhile folds the fields not
    /// begun yet itself, beside this (`columnsFirstUnclaimed`).
    public func prepareSearch(in fields: [FieldPath]) {
        for field in fields { _ = column(field) }
    }

    /// `fields` with those neither folded nor being folded first: a search folds them itself
    /// while the fold under way goes on, then waits for that one.
    func columnsFirstUnclaimed(_ fields: [FieldPath]) -> [FieldPath] {
        let (building, other) = fields.reduce(into: ([FieldPath](), [FieldPath]())) { parts, field in
            if columnBuilds.isBuilding(field) { parts.0.append(field) } else { parts.1.append(field) }
        }
        return other + building
    }

    /// The folded column of `field`, built on first use.
    func column(_ field: FieldPath) -> SearchColumn {
        columnBuilds.value(field, cached: { state.withLock { $0.searchColumns[field] } }) {
            let built = SearchColumn(list: list, field: field, firstMemberWins: membersNamedOnce)
            return state.withLock { state in
                if let stored = state.searchColumns[field] { return stored }
                state.store(built, for: field)
                return built
            }
        }
    }
}
