/// The ids of one snapshot's items at the route's `idField` (docs/API.md, "Changes between
/// snapshots"): a hash of each id and a table from id to item, built once per snapshot and kept
/// with it, so answering `since` never reads ids again except to confirm a match.
///
/// A list in which an item has no string or number at `idField`, or repeats an earlier item's
/// id, has no ids: `problem` names the first such item in upstream order, and the table keeps
/// nothing else. Ids compare as `IDValue` says (`"\u0041"` = `"A"`, `7` = `7.0` = `7e0`, a
/// string never equals a number).
///
/// Costs 4 bytes an item for the hashes and 4 bytes a slot for the table (1.5 to 3 slots an
/// item): `retainedBytes`, which the cache counts like the snapshot's other indexes.
public struct ItemIDs: Sendable {
    /// The first item that leaves a list without ids.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// Its 0-based index in upstream order.
        public let index: Int
        /// The earlier item whose id it repeats; nil when it has no string or number there.
        public let repeats: Int?

        public init(index: Int, repeats: Int?) {
            self.index = index
            self.repeats = repeats
        }

        public var description: String {
            if let repeats { "item \(index) repeats the id of item \(repeats)" } else { "item \(index) has no id" }
        }
    }

    public let field: FieldPath
    /// Why the list has no ids; nil when every item has its own.
    public let problem: Problem?
    /// The list the ids were read from (shared storage, not a copy).
    let list: ItemList
    /// `IDValue.hash` of each element; empty when there is a problem.
    let hashes: [UInt32]
    /// Open addressing with linear probing: element + 1, or 0 for an empty slot. A power of two
    /// long and at most two thirds full.
    let slots: [UInt32]

    /// Reads the id of every element of `list` at `field`. From 65,536 items on, the reading is
    /// split over the cores; the table is then filled in upstream order, which finds the first
    /// repeated id.
    public init(list: ItemList, field: FieldPath) {
        var firstMissing: Int?
        let hashes = [UInt32](unsafeUninitializedCapacity: list.count) { buffer, initialized in
            firstMissing = Self.readHashes(list, field: field, into: buffer)
            initialized = list.count
        }
        self.init(list: list, field: field, hashes: hashes, firstMissing: firstMissing)
    }

    /// The table of `hashes` (one an element; those from `firstMissing` on are not read). Tests
    /// give hashes of their own to make ids collide.
    init(list: ItemList, field: FieldPath, hashes: [UInt32], firstMissing: Int?) {
        self.list = list
        self.field = field
        let (slots, repeated) = Self.table(list, field: field, hashes: hashes, through: firstMissing ?? list.count)
        problem = repeated ?? firstMissing.map { Problem(index: $0, repeats: nil) }
        self.hashes = problem == nil ? hashes : []
        self.slots = problem == nil ? slots : []
    }

    /// Number of items.
    public var count: Int { list.count }

    /// Bytes this table keeps beyond the list itself.
    public var retainedBytes: Int { hashes.capacity * 4 + slots.capacity * 4 }

    /// Throws `ids-not-unique` (409) when the list has no ids.
    public func requireUnique() throws(FolioError) {
        if let problem { throw .idsNotUnique(problem, idField: field.text) }
    }

    static let chunkSize = 1 << 16

    /// Fills `hashes` for every element (in parallel chunks for large lists) and returns the
    /// first element without a string or number id. Elements after that one may be left unset.
    private static func readHashes(_ list: ItemList, field: FieldPath, into hashes: UnsafeMutableBufferPointer<UInt32>)
        -> Int?
    {
        let count = list.count
        guard count > 0 else { return nil }
        let chunks = (count + chunkSize - 1) / chunkSize
        let firsts = UnsafeMutableBufferPointer<Int>.allocate(capacity: chunks)
        defer { firsts.deallocate() }
        firsts.initialize(repeating: Int.max)
        let output = ChunkOutput(hashes: hashes, firsts: firsts)
        // Each chunk writes only its own elements' hashes and its own first.
        let read: @Sendable (Int) -> Void = { chunk in
            list.bytes.withUnsafeBufferPointer { bytes in
                var scratch: [UInt8] = []
                for element in chunk * chunkSize..<min(count, (chunk + 1) * chunkSize) {
                    guard let id = IDValue(bytes, list.range(of: element), field: field) else {
                        output.firsts[chunk] = element
                        return
                    }
                    output.hashes[element] = id.hash(bytes, scratch: &scratch)
                }
            }
        }
        FillWorkers.shared.performAll(iterations: chunks, read)
        let first = firsts.min()!
        return first == Int.max ? nil : first
    }

    /// Where the chunks read in parallel write: disjoint parts of two buffers.
    private struct ChunkOutput: @unchecked Sendable {
        let hashes: UnsafeMutableBufferPointer<UInt32>
        let firsts: UnsafeMutableBufferPointer<Int>
    }

    /// The table of elements `0..<limit`, or the first of them that repeats an earlier id.
    private static func table(_ list: ItemList, field: FieldPath, hashes: [UInt32], through limit: Int) -> (
        [UInt32], Problem?
    ) {
        var capacity = 16
        while capacity < limit + limit / 2 { capacity <<= 1 }
        let mask = capacity - 1
        var problem: Problem?
        let slots = [UInt32](unsafeUninitializedCapacity: capacity) { slots, initialized in
            slots.initialize(repeating: 0)
            initialized = capacity
            hashes.withUnsafeBufferPointer { hashes in
                list.bytes.withUnsafeBufferPointer { bytes in
                    insert: for element in 0..<limit {
                        let hash = hashes[element]
                        var slot = Int(hash) & mask
                        while slots[slot] != 0 {
                            let other = Int(slots[slot] - 1)
                            if hashes[other] == hash, sameID(list, bytes, other, element, field: field) {
                                problem = Problem(index: element, repeats: other)
                                break insert
                            }
                            slot = (slot + 1) & mask
                        }
                        slots[slot] = UInt32(element + 1)
                    }
                }
            }
        }
        return (slots, problem)
    }

    private static func sameID(
        _ list: ItemList, _ bytes: UnsafeBufferPointer<UInt8>, _ a: Int, _ b: Int, field: FieldPath
    ) -> Bool {
        guard let x = IDValue(bytes, list.range(of: a), field: field),
            let y = IDValue(bytes, list.range(of: b), field: field)
        else { return false }
        return IDValue.equal(x, bytes, y, bytes)
    }

    /// The id of `element`, read from `bytes` (this list's storage).
    @inline(__always)
    func id(of element: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> IDValue? {
        IDValue(bytes, list.range(of: element), field: field)
    }

    /// The element of this list whose id is that of `element` of `other`, or nil. `bytes` and
    /// `otherBytes` are the two lists' storage.
    func element(
        matching element: Int, of other: ItemIDs, _ bytes: UnsafeBufferPointer<UInt8>,
        _ otherBytes: UnsafeBufferPointer<UInt8>
    ) -> Int? {
        guard !slots.isEmpty else { return nil }
        let hash = other.hashes[element]
        let mask = slots.count - 1
        var slot = Int(hash) & mask
        var wanted: IDValue?  // read on the first candidate: most lookups of a new id find none
        while true {
            let entry = slots[slot]
            if entry == 0 { return nil }
            let candidate = Int(entry - 1)
            if hashes[candidate] == hash {
                if wanted == nil { wanted = other.id(of: element, otherBytes) }
                if let wanted, let found = id(of: candidate, bytes), IDValue.equal(found, bytes, wanted, otherBytes) {
                    return candidate
                }
            }
            slot = (slot + 1) & mask
        }
    }
}
