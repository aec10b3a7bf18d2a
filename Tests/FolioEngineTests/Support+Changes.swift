import Foundation
import Testing

@testable import FolioEngine

/// Lists and patches for the tests of docs/API.md, "Changes between snapshots".
enum ChangeFixture {
    /// A list whose elements are `elements`, with whitespace and commas between them as an
    /// upstream may write them.
    static func list(_ elements: [String]) -> ItemList {
        var bytes: [UInt8] = Array("[ ".utf8)
        var starts: [UInt32] = []
        var ends: [UInt32] = []
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes += Array(" ,\n ".utf8) }
            starts.append(UInt32(bytes.count))
            bytes += Array(element.utf8)
            ends.append(UInt32(bytes.count))
        }
        bytes += Array(" ]".utf8)
        return ItemList(bytes: bytes, starts: starts, ends: ends)
    }

    static func ids(_ list: ItemList, _ field: String = "id") -> ItemIDs {
        ItemIDs(list: list, field: try! FieldPath(field))
    }

    /// The view's items as `form` writes them, each on its own.
    static func written(_ view: ListView, form: SparseFields?) -> [[UInt8]] {
        (0..<view.count).map { position in
            let one = ListView(list: view.list, order: [UInt32(view.elementIndex(at: position))])
            return Array(PageWriter.bareArray(view: one, items: 0..<1, fields: form).dropFirst().dropLast())
        }
    }
}

/// Applies a `since` body's patch to an array of raw items, as RFC 6902 says, reading the
/// operations with Foundation's parser and each `value` as the bytes the body holds (so the
/// test sees the bytes, not a decoded copy).
struct AppliedPatch {
    var items: [[UInt8]]
    var removes = 0
    var adds = 0
    var replaces = 0
    var moves = 0
    /// The body's `changes` object, decoded.
    var changes: [String: Any] = [:]

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(_ body: [UInt8], to old: [[UInt8]]) throws {
        items = old
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        changes = try #require(object["changes"] as? [String: Any])
        let operations = try #require(object["patch"] as? [[String: Any]])
        let top = try RawJSON.members(body, objectAt: 0)
        #expect(top.map { String(decoding: $0.key, as: UTF8.self) } == ["changes", "patch"])
        let patch = try #require(top.first { $0.key == Array("patch".utf8) })
        let raw = try RawJSON.elements(body, arrayAt: patch.value.lowerBound)
        #expect(raw.count == operations.count)
        for (operation, range) in zip(operations, raw) {
            let members = try RawJSON.members(body, objectAt: range.lowerBound)
            let value = members.first { $0.key == Array("value".utf8) }.map { Array(body[$0.value]) }
            let path = try index(operation["path"])
            switch operation["op"] as? String {
            case "remove":
                guard path < items.count else { throw Failure(description: "remove past the end: \(operation)") }
                items.remove(at: path)
                removes += 1
            case "add":
                guard path <= items.count, let value else { throw Failure(description: "bad add: \(operation)") }
                items.insert(value, at: path)
                adds += 1
            case "replace":
                guard path < items.count, let value else { throw Failure(description: "bad replace: \(operation)") }
                items[path] = value
                replaces += 1
            case "move":
                let from = try index(operation["from"])
                guard from < items.count else { throw Failure(description: "move from past the end: \(operation)") }
                let item = items.remove(at: from)
                guard path <= items.count else { throw Failure(description: "move past the end: \(operation)") }
                items.insert(item, at: path)
                moves += 1
            default:
                throw Failure(description: "unexpected operation \(operation)")
            }
        }
    }

    /// A JSON Pointer to an array element, `/12`.
    private func index(_ pointer: Any?) throws -> Int {
        guard let text = pointer as? String, text.hasPrefix("/"), let index = Int(text.dropFirst()), index >= 0,
            String(index) == text.dropFirst()
        else { throw Failure(description: "not an array index pointer: \(String(describing: pointer))") }
        return index
    }
}

/// An item's bytes, compared byte for byte and shown as text when a test fails.
struct RawItem: Equatable, CustomStringConvertible {
    let bytes: [UInt8]
    var description: String { String(decoding: bytes, as: UTF8.self) }
}

extension [[UInt8]] {
    var raw: [RawItem] { map(RawItem.init) }
}

extension [String] {
    var raw: [RawItem] { map { RawItem(bytes: [UInt8]($0.utf8)) } }
}
