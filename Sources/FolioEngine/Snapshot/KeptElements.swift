/// Element lists kept by key, the most recently used last, at most `limit` of them (a
/// snapshot's `?q=` answers and filtered views). Each is stored at exactly its size, so it
/// costs 4 bytes an element; `bytes` is what all of them hold.
struct KeptElements<Key: Hashable>: Sendable where Key: Sendable {
    let limit: Int
    private(set) var entries: [(key: Key, elements: [UInt32])] = []
    private(set) var bytes = 0

    init(limit: Int) {
        self.limit = limit
    }

    /// The list for `key`, now the most recently used.
    mutating func get(_ key: Key) -> [UInt32]? {
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
        let entry = entries.remove(at: index)
        entries.append(entry)
        return entry.elements
    }

    /// Keeps `elements` for `key`; the least recently used go beyond `limit`.
    mutating func store(_ elements: [UInt32], for key: Key) {
        let elements = compact(elements)
        if let index = entries.firstIndex(where: { $0.key == key }) {
            bytes -= entries.remove(at: index).elements.capacity * 4
        }
        entries.append((key, elements))
        bytes += elements.capacity * 4
        while entries.count > limit {
            bytes -= entries.removeFirst().elements.capacity * 4
        }
    }

    /// Drops every list (the cache is over its bound).
    mutating func removeAll() {
        entries.removeAll()
        bytes = 0
    }
}
