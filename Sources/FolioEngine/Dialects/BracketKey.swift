/// Query keys with bracketed parts, `filter[price][gte]` (JSON:API, Strapi; docs/API.md, "More dialects").
enum BracketKey {
    /// The bracketed parts of `key` after `name` (`filter[price][gte]` of `filter`: `price`, `gte`); nil when the key
    /// is not `name` followed by one or more `[part]`s.
    static func parts(_ key: String, of name: String) -> [Substring]? {
        guard key.hasPrefix(name + "[") else { return nil }
        var rest = key.dropFirst(name.count)
        var parts: [Substring] = []
        while !rest.isEmpty {
            guard rest.first == "[", let close = rest.firstIndex(of: "]") else { return nil }
            parts.append(rest[rest.index(after: rest.startIndex)..<close])
            rest = rest[rest.index(after: close)...]
        }
        return parts
    }
}
