import Foundation

/// One answer of `?since=TOKEN` (docs/API.md, "Changes between snapshots"): how the list's view
/// changed from snapshot `from` to snapshot `to`, as a JSON Patch on the array of its items.
public struct ListPatch<Element: Decodable & Sendable>: Sendable, Decodable {
    public var from: String
    public var to: String
    /// The size of the view in `to`.
    public var count: Int
    /// The size of the view in `from`.
    public var previousCount: Int
    /// Applied in order to the items of `from`, it gives the items of `to`.
    public var operations: [Operation]

    /// The four operations a `since` answer holds (RFC 6902 paths of one array index).
    public enum Operation: Sendable {
        case remove(Int)
        case add(Int, Element)
        case replace(Int, Element)
        case move(from: Int, to: Int)
    }

    public init(from: String, to: String, count: Int, previousCount: Int, operations: [Operation]) {
        self.from = from
        self.to = to
        self.count = count
        self.previousCount = previousCount
        self.operations = operations
    }

    private enum Keys: String, CodingKey { case changes, patch, from, to, count, previousCount }

    public init(from decoder: any Decoder) throws {
        let body = try decoder.container(keyedBy: Keys.self)
        let changes = try body.nestedContainer(keyedBy: Keys.self, forKey: .changes)
        from = try changes.decode(String.self, forKey: .from)
        to = try changes.decode(String.self, forKey: .to)
        count = try changes.decode(Int.self, forKey: .count)
        previousCount = try changes.decode(Int.self, forKey: .previousCount)
        operations = try body.decode([WireOperation].self, forKey: .patch).map(\.operation)
    }

    /// `{"op": "add", "path": "/40", "value": …}` and its kin.
    private struct WireOperation: Decodable {
        var operation: Operation

        private enum Keys: String, CodingKey { case op, path, from, value }

        init(from decoder: any Decoder) throws {
            let object = try decoder.container(keyedBy: Keys.self)
            let path = try Self.index(object.decode(String.self, forKey: .path), in: object, key: .path)
            switch try object.decode(String.self, forKey: .op) {
            case "remove": operation = .remove(path)
            case "add": operation = .add(path, try object.decode(Element.self, forKey: .value))
            case "replace": operation = .replace(path, try object.decode(Element.self, forKey: .value))
            case "move":
                let from = try Self.index(object.decode(String.self, forKey: .from), in: object, key: .from)
                operation = .move(from: from, to: path)
            case let op:
                throw DecodingError.dataCorruptedError(
                    forKey: .op, in: object, debugDescription: "op \(op) is not remove, add, replace or move")
            }
        }

        /// `/12` → 12.
        private static func index(
            _ pointer: String, in object: KeyedDecodingContainer<Keys>, key: Keys
        ) throws -> Int {
            guard pointer.hasPrefix("/"), let index = Int(pointer.dropFirst()), index >= 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: object, debugDescription: "\(pointer) is not the path of an array index")
            }
            return index
        }
    }
}

/// What a patch did to a list, in the shape `performBatchUpdates` and diffable data sources take:
/// removed and reloaded rows by their index in the old list, inserted rows by their index in
/// the new one, moved rows by both. A row both moved and replaced is removed and inserted.
public struct ListChange: Sendable, Equatable {
    public struct Move: Sendable, Equatable, Hashable {
        public var from: Int
        public var to: Int

        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// Ascending indexes of the old list.
    public var removed: [Int]
    /// Ascending indexes of the new list.
    public var inserted: [Int]
    /// Ascending indexes of the old list whose rows have new values (and did not move).
    public var reloaded: [Int]
    /// By ascending `from`.
    public var moved: [Move]
    public var previousCount: Int
    public var count: Int

    public init(
        removed: [Int] = [], inserted: [Int] = [], reloaded: [Int] = [], moved: [Move] = [], previousCount: Int,
        count: Int
    ) {
        self.removed = removed
        self.inserted = inserted
        self.reloaded = reloaded
        self.moved = moved
        self.previousCount = previousCount
        self.count = count
    }

    public var isEmpty: Bool { removed.isEmpty && inserted.isEmpty && reloaded.isEmpty && moved.isEmpty }
}
