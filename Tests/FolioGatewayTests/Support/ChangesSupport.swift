import Foundation
import HummingbirdTesting
import Testing

/// Helpers of the `since` tests (docs/API.md, "Changes between snapshots"): walking a view's
/// pages, applying a JSON Patch, and the operation counts a minimal patch must have.
enum ChangesCheck {
    /// Every item of the view `query` of snapshot `token`, as raw texts, by following `next`.
    static func walk(_ client: any TestClientProtocol, query: String, token: String) async throws -> [String] {
        var uri: String? = "/objects?\(query.isEmpty ? "" : query + "&")pageSize=7&snapshot=\(token)"
        var items: [String] = []
        while let next = uri {
            let page = try await client.execute(uri: next, method: .get)
            #expect(page.status == .ok, "\(next): \(page.text)")
            items += try rawItems(page.text)
            uri = try page.json.paging["next"] as? String
        }
        return items
    }

    /// `old` with `patch` applied, every value decoded (compared as JSON values).
    static func apply(_ patch: [[String: Any]], to old: [String]) throws -> [Any] {
        var array: [Any] = try old.map(decode)
        func index(_ pointer: Any?) throws -> Int {
            let text = try #require(pointer as? String)
            #expect(text.hasPrefix("/"))
            return try #require(Int(text.dropFirst()))
        }
        for operation in patch {
            switch operation["op"] as? String {
            case "remove": array.remove(at: try index(operation["path"]))
            case "add": array.insert(try #require(operation["value"]), at: try index(operation["path"]))
            case "replace": array[try index(operation["path"])] = try #require(operation["value"])
            case "move":
                let item = array.remove(at: try index(operation["from"]))
                array.insert(item, at: try index(operation["path"]))
            default: throw TestFailure("unexpected operation \(operation)")
            }
        }
        return array
    }

    static func decode(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    static func same(_ a: [Any], _ b: [Any]) -> Bool {
        NSArray(array: a).isEqual(to: b)
    }

    /// R, A, C and M of a minimal patch from `old` to `new` (raw items, ids at `id`): ids only
    /// in one view, common ids whose bytes differ, and the common ids outside a longest run in
    /// the same order in both.
    static func expectedCounts(old: [String], new: [String]) throws -> [String: Int] {
        func ids(_ items: [String]) throws -> [String] {
            try items.map { item in
                let object = try #require(try decode(item) as? [String: Any])
                return "\(try #require(object["id"]))"
            }
        }
        let oldIDs = try ids(old)
        let newIDs = try ids(new)
        let oldPosition = Dictionary(uniqueKeysWithValues: oldIDs.enumerated().map { ($1, $0) })
        let newSet = Set(newIDs)
        var common: [Int] = []
        var changed = 0
        for (position, id) in newIDs.enumerated() {
            guard let before = oldPosition[id] else { continue }
            common.append(before)
            if old[before] != new[position] { changed += 1 }
        }
        // Longest increasing run, quadratic: the tests' lists are small.
        var longest = [Int](repeating: 1, count: common.count)
        for i in common.indices {
            for j in 0..<i where common[j] < common[i] { longest[i] = max(longest[i], longest[j] + 1) }
        }
        return [
            "remove": oldIDs.filter { !newSet.contains($0) }.count,
            "add": newIDs.count - common.count,
            "replace": changed,
            "move": common.count - (longest.max() ?? 0),
        ]
    }

    /// How many operations of each kind `patch` has.
    static func counts(_ patch: [[String: Any]]) -> [String: Int] {
        var counts = ["remove": 0, "add": 0, "replace": 0, "move": 0]
        for operation in patch { counts[operation["op"] as? String ?? "?", default: 0] += 1 }
        return counts
    }
}
