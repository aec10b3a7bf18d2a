import Synchronization

/// Everything derived from one snapshot's list for sorting, sections and filters (docs/API.md,
/// "Sorting", "Section index").
///
/// Each piece is computed on first use and kept for the snapshot's life: single-field orders with
/// their tie marks (4 bytes and 1 bit an element; the opposite direction, value groups and filter
/// ranges derive from them without reading items again), multi-field orders (4 bytes an element),
/// and the section index. Computation runs outside the lock, so two threads asking for the same
/// order at once may both build it; the first stored wins.
public final class SnapshotIndexes: Sendable {
    let list: ItemList
    let sectionKey: FieldPath?
    let state = Mutex(State())

    /// Distinct `?q=` answers kept per snapshot, least recently used dropped first.
    static let searchesKept = 32
    /// Distinct filtered views kept per snapshot, least recently used dropped first.
    static let viewsKept = 32

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
        var crossType: Bool
    }

    /// What has been built; stored only through the `store` methods, which keep `bytes` (what
    /// all of it retains) current, so reading the total is cheap for the cache's recount after
    /// every request that may have built something.
    struct State: ~Copyable {
        private(set) var single: [OrderID: OrderEntry] = [:]
        private(set) var multi: [SortSpec: [UInt32]] = [:]
        private(set) var titles: OrderBuilder.Titles?
        private(set) var valueGroups: [FieldPath: [Section]] = [:]
        private(set) var searchColumns: [FieldPath: SearchColumn] = [:]
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
            ownBytes += sections.reduce(0) { $0 + 48 + ($1.title?.utf8.count ?? 0) + ($1.value?.utf8.count ?? 0) }
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
        let base = entry(OrderID(field: firstKey.field, descending: firstKey.descending, crossType: false))
        guard sort.keys.count > 1 else { return base.order }
        if let cached = state.withLock({ $0.multi[sort] }) { return cached }
        let rest = sort.keys.dropFirst().map { (key: $0, rule: rule(for: $0.field, crossType: false)) }
        let order = OrderBuilder.refine(list: list, base: base, keys: rest)
        return state.withLock { state in
            if let stored = state.multi[sort] { return stored }
            state.store(order, for: sort)
            return order
        }
    }

    func rule(for field: FieldPath, crossType: Bool) -> FieldColumn.Rule {
        !crossType && field == sectionKey ? .sectionKey : .crossType
    }

    /// The single-field order, from the cache, derived from the opposite direction, or built.
    func entry(_ requested: OrderID) -> OrderEntry {
        var id = requested
        // The cross-type rule is already what every field but the sectionKey uses.
        if id.field != sectionKey { id.crossType = false }
        var opposite = id
        opposite.descending.toggle()
        let (cached, reversible) = state.withLock { ($0.single[id], $0.single[opposite]) }
        if let cached { return cached }
        let rule = rule(for: id.field, crossType: id.crossType)
        let built: OrderEntry
        var titles: OrderBuilder.Titles?
        if let reversible {
            built = reversible.reversed()
        } else {
            (built, titles) = OrderBuilder.single(list: list, field: id.field, rule: rule, descending: id.descending)
        }
        return state.withLock { state in
            if let titles, state.titles == nil { state.store(titles) }
            if let stored = state.single[id] { return stored }
            state.store(built, for: id)
            return built
        }
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
