import Synchronization

/// Everything derived from one snapshot's list for sorting, sections and filters (docs/API.md,
/// "Sorting", "Section index").
///
/// Each piece is computed on first use and kept: single-field orders with their tie marks
/// (4 bytes and 1 bit an element; the opposite direction, value groups and filter ranges derive
/// from them without reading items again), multi-field orders (4 bytes an element), and the
/// section index. What the fill prepared (the route's order, search columns) stays for the
/// snapshot's life; what requests built goes first when the cache is over its bound (`shed`).
/// Computation runs outside the lock, so two threads asking for the same order at once may both
/// build it; the first stored wins.
public final class SnapshotIndexes: Sendable {
    let list: ItemList
    let sectionKey: FieldPath?
    let state = Mutex(State())
    /// Held while the ids are read (`itemIDs`), so they are read once however many requests ask.
    let readingIDs = Mutex(())
    /// `firstItemWithoutID` by field (a few bytes each).
    let idChecks = Mutex<[FieldPath: Int?]>([:])
    /// Search columns being folded: one fold each, however many ask at once.
    let columnBuilds = OnceEach<FieldPath>()
    /// Whether no item names a top-level member twice, checked once (`membersNamedOnce`).
    let memberNames = MemberNamesCheck()

    /// Distinct `?q=` answers kept per snapshot, least recently used dropped first.
    static let searchesKept = 32
    /// Distinct filtered views kept per snapshot, least recently used dropped first.
    static let viewsKept = 32
    /// From this many elements, the single-field orders a several-key order needs are built in
    /// parallel (below it each takes a few milliseconds).
    static let parallelOrderCount = 65_536

    /// The filtered view described by `key` (sort, filters, search: whatever selects it), built
    /// by `build` the first time and kept (4 bytes an element it holds, counted in
    /// `retainedBytes`, the `viewsKept` most recently used), so paging through it costs a
    /// lookup. Nil from `build` (the upstream order) is not kept.
    public func view(_ key: String, build: () -> [UInt32]?) -> [UInt32]? {
        if let cached = state.withLock({ $0.views.get(key) }) { return cached }
        guard let built = build() else { return nil }
        state.withLock { $0.views.store(built, for: key) }
        return built
    }

    struct SearchKey: Hashable {
        var folded: [UInt8]
        var fields: [FieldPath]
    }

    struct OrderID: Hashable {
        var field: FieldPath
        var descending: Bool
        var crossType = false

        /// The same field in the other direction.
        var opposite: OrderID {
            var id = self
            id.descending.toggle()
            return id
        }
    }

    /// What has been built; stored only through the `store` methods, which keep `bytes` (what
    /// all of it retains) current, so reading the total is cheap for the cache's recount after
    /// every request that may have built something.
    struct State: ~Copyable {
        /// Orders the fill prepared (`prepare`), which `shed` keeps.
        var prepared: Set<OrderID> = []
        var preparedSorts: Set<SortSpec> = []
        private(set) var single: [OrderID: OrderEntry] = [:]
        private(set) var multi: [SortSpec: [UInt32]] = [:]
        private(set) var titles: OrderBuilder.Titles?
        private(set) var valueGroups: [FieldPath: [Section]] = [:]
        private(set) var searchColumns: [FieldPath: SearchColumn] = [:]
        /// Each `idField`'s ids (`itemIDs`), kept for the snapshot's life like the prepared orders.
        private(set) var ids: [FieldPath: ItemIDs] = [:]
        /// `?q=` answers by folded query and fields (elements in upstream order).
        var searches = KeptElements<SearchKey>(limit: SnapshotIndexes.searchesKept)
        /// Whole views (a filtered and sorted list, by the request's description).
        var views = KeptElements<String>(limit: SnapshotIndexes.viewsKept)
        private(set) var ownBytes = 0
        /// What all of it retains.
        var bytes: Int { ownBytes + searches.bytes + views.bytes }

        mutating func store(_ column: SearchColumn, for field: FieldPath) {
            searchColumns[field] = column
            ownBytes += column.retainedBytes
        }

        mutating func store(_ itemIDs: ItemIDs, for field: FieldPath) {
            ids[field] = itemIDs
            ownBytes += itemIDs.retainedBytes
        }

        mutating func store(_ entry: OrderEntry, for id: OrderID) {
            single[id] = entry
            ownBytes += entry.retainedBytes
        }

        mutating func store(_ order: [UInt32], for sort: SortSpec) {
            multi[sort] = order
            ownBytes += order.capacity * 4
        }

        mutating func store(_ titles: OrderBuilder.Titles) {
            self.titles = titles
            ownBytes += titles.titles.reduce(0) { $0 + 16 + $1.utf8.count } + titles.counts.capacity * 8
        }

        mutating func store(_ sections: [Section], for field: FieldPath) {
            valueGroups[field] = sections
            ownBytes += Self.bytes(of: sections)
        }

        static func bytes(of sections: [Section]) -> Int {
            sections.reduce(0) { $0 + 48 + ($1.title?.utf8.count ?? 0) + ($1.value?.utf8.count ?? 0) }
        }

        /// Drops all but the prepared orders, the titles and the search columns; the bytes freed.
        mutating func shed() -> Int {
            let before = bytes
            for (id, entry) in single where !prepared.contains(id) {
                single[id] = nil
                ownBytes -= entry.retainedBytes
            }
            for (sort, order) in multi where !preparedSorts.contains(sort) {
                multi[sort] = nil
                ownBytes -= order.capacity * 4
            }
            let groups = valueGroups
            valueGroups = [:]
            ownBytes -= groups.values.reduce(0) { $0 + Self.bytes(of: $1) }
            searches.removeAll()
            views.removeAll()
            return before - bytes
        }
    }

    public init(list: ItemList, sectionKey: FieldPath?) {
        self.list = list
        self.sectionKey = sectionKey
    }

    /// Bytes held by the caches (not the list itself).
    public var retainedBytes: Int {
        state.withLock { $0.bytes }
    }

    /// The permutation of element indices for `sort` (docs/API.md, "Sorting"): a key on the
    /// `sectionKey` uses the `sectionKey` rule (strings by folded key, then every other value in
    /// upstream order, then null/missing); other keys the cross-type rule (numbers < strings <
    /// booleans < objects/arrays < null/missing, numbers by exact decimal value, strings by folded
    /// then exact form). `-` reverses all but null/missing; ties go to the next key, then upstream
    /// position. Nil for `SortSpec.upstream` (the identity).
    public func order(_ sort: SortSpec) -> [UInt32]? {
        guard let firstKey = sort.keys.first else { return nil }
        let first = normalized(OrderID(field: firstKey.field, descending: firstKey.descending))
        guard sort.keys.count > 1 else { return entry(first).order }
        if let cached = state.withLock({ $0.multi[sort] }) { return cached }
        let further = sort.keys.dropFirst().map { normalized(OrderID(field: $0.field, descending: $0.descending)) }
        func isBuilt(_ id: OrderID, _ state: borrowing State) -> Bool {
            state.single[id] != nil || state.single[id.opposite] != nil
        }
        let missing = state.withLock { state in ([first] + further).filter { !isBuilt($0, state) } }
        if missing.count > 1, list.count >= Self.parallelOrderCount {
            // Each key's single-field order on a fill worker of its own; then the several-key
            // order is a linear pass over them (`fromSingles`).
            FillWorkers.shared.performAll(iterations: missing.count) { _ = self.entry(missing[$0]) }
        }
        let base = entry(first)
        let built = state.withLock { state in further.allSatisfy { isBuilt($0, state) } }
        let order: [UInt32]
        if built || base.ties.setCount * 2 > base.order.count {
            order = OrderBuilder.fromSingles([base] + further.map(entry))
        } else {
            let rest = sort.keys.dropFirst().map { (key: $0, rule: rule(for: $0.field, crossType: false)) }
            order = OrderBuilder.refine(list: list, base: base, keys: rest, firstMemberWins: membersNamedOnce)
        }
        return state.withLock { state in
            if let stored = state.multi[sort] { return stored }
            state.store(order, for: sort)
            return order
        }
    }

    /// `sort`'s order, built now and kept for the snapshot's life (the route's own order: every
    /// page without `sort` uses it).
    public func prepare(_ sort: SortSpec) {
        _ = order(sort)
        guard let first = sort.keys.first else { return }
        let id = normalized(OrderID(field: first.field, descending: first.descending, crossType: false))
        state.withLock { state in
            state.prepared.insert(id)
            if sort.keys.count > 1 { state.preparedSorts.insert(sort) }
        }
    }

    /// Drops what requests built (orders other than the prepared ones, value groups, filtered
    /// views, `?q=` answers) and returns the bytes freed: the cache sheds these before it evicts
    /// any snapshot. Requests holding one keep their copy; the next one builds it again.
    public func shed() -> Int {
        state.withLock { $0.shed() }
    }

    func rule(for field: FieldPath, crossType: Bool) -> FieldColumn.Rule {
        !crossType && field == sectionKey ? .sectionKey : .crossType
    }

    /// The single-field order, from the cache, derived from the opposite direction, or built.
    func entry(_ requested: OrderID) -> OrderEntry {
        let id = normalized(requested)
        let (cached, reversible) = state.withLock { ($0.single[id], $0.single[id.opposite]) }
        if let cached { return cached }
        let rule = rule(for: id.field, crossType: id.crossType)
        let built: OrderEntry
        var titles: OrderBuilder.Titles?
        if let reversible {
            built = reversible.reversed()
        } else {
            (built, titles) = OrderBuilder.single(
                list: list, field: id.field, rule: rule, descending: id.descending, firstMemberWins: membersNamedOnce)
        }
        return state.withLock { state in
            if let titles, state.titles == nil { state.store(titles) }
            if let stored = state.single[id] { return stored }
            state.store(built, for: id)
            return built
        }
    }
}

extension SnapshotIndexes {
    /// The cross-type rule is already what every field but the sectionKey uses: one entry.
    func normalized(_ id: OrderID) -> OrderID {
        var id = id
        if id.field != sectionKey { id.crossType = false }
        return id
    }
}

/// `elements` in storage of exactly its size: a list built by appending may hold up to twice
/// its count, and a kept view should cost 4 bytes an element.
func compact(_ elements: [UInt32]) -> [UInt32] {
    guard elements.capacity > elements.count else { return elements }
    return [UInt32](unsafeUninitializedCapacity: elements.count) { buffer, count in
        _ = buffer.initialize(from: elements)
        count = elements.count
    }
}

/// Whether two arrays share storage: the caller passed back an order this index handed out.
func sameStorage(_ a: [UInt32], _ b: [UInt32]) -> Bool {
    guard a.count == b.count else { return false }
    return a.withUnsafeBufferPointer { first in
        b.withUnsafeBufferPointer { second in first.baseAddress == second.baseAddress }
    }
}
