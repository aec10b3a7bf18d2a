/// The rows of a list of known size, each loaded or a placeholder (nil), and a JSON Patch applied
/// to them in place (docs/CLIENT.md, "Keeping the user's place"): loaded rows stay loaded and
/// shift, placeholders shift, added and replaced rows arrive with their values.
///
/// Pure; `PagedList` keeps its rows in one.
struct SparseRows<Element: Decodable & Sendable>: Sendable {
    private(set) var rows: [Element?]

    init(count: Int) {
        rows = Array(repeating: nil, count: count)
    }

    var count: Int { rows.count }

    subscript(index: Int) -> Element? {
        index >= 0 && index < rows.count ? rows[index] : nil
    }

    /// Stores `items` from row `offset` on (the rows past the end are dropped).
    mutating func fill(_ items: [Element], at offset: Int) {
        for (position, item) in items.enumerated() where offset + position < rows.count {
            rows[offset + position] = item
        }
    }

    /// Whether every row of `range` is loaded.
    func isLoaded(_ range: Range<Int>) -> Bool {
        range.clamped(to: 0..<rows.count).allSatisfy { rows[$0] != nil }
    }

    /// Applies `operations` in order and returns what they did, as one change.
    ///
    /// - Throws: `ClientError.malformed` when an operation's index is outside the list as it is
    ///   at that point, or the result does not have `expectedCount` rows; the rows are then
    ///   unchanged.
    mutating func apply(_ operations: [ListPatch<Element>.Operation], expectedCount: Int) throws(ClientError)
        -> ListChange
    {
        var slots = rows.enumerated().map { Slot(origin: $0.offset, value: $0.element) }
        for operation in operations {
            switch operation {
            case .remove(let index):
                guard index < slots.count else { throw .malformed("remove /\(index) of \(slots.count) rows") }
                slots.remove(at: index)
            case .add(let index, let value):
                guard index <= slots.count else { throw .malformed("add /\(index) to \(slots.count) rows") }
                slots.insert(Slot(origin: nil, value: value), at: index)
            case .replace(let index, let value):
                guard index < slots.count else { throw .malformed("replace /\(index) of \(slots.count) rows") }
                slots[index].value = value
                slots[index].replaced = true
            case .move(let from, let to):
                guard from < slots.count, to < slots.count else {
                    throw .malformed("move /\(from) to /\(to) of \(slots.count) rows")
                }
                var slot = slots.remove(at: from)
                slot.moved = true
                slots.insert(slot, at: to)
            }
        }
        guard slots.count == expectedCount else {
            throw .malformed("the patch gives \(slots.count) rows, the answer says \(expectedCount)")
        }
        var change = ListChange(previousCount: rows.count, count: slots.count)
        var kept = Array(repeating: false, count: rows.count)
        for (index, slot) in slots.enumerated() {
            guard let origin = slot.origin else {
                change.inserted.append(index)
                continue
            }
            kept[origin] = true
            switch (slot.moved, slot.replaced) {
            case (true, true):
                change.removed.append(origin)
                change.inserted.append(index)
            case (true, false): change.moved.append(.init(from: origin, to: index))
            case (false, true): change.reloaded.append(origin)
            case (false, false): break
            }
        }
        change.removed += kept.indices.filter { !kept[$0] }
        change.removed.sort()
        change.reloaded.sort()
        change.moved.sort { $0.from < $1.from }
        rows = slots.map(\.value)
        return change
    }

    /// A row on its way through a patch: where it was in the old list (nil for an added one),
    /// and whether it got a new value or moved.
    private struct Slot {
        var origin: Int?
        var value: Element?
        var replaced = false
        var moved = false
    }
}
