/// An RFC 6901 JSON Pointer, e.g. `/data/items`; `""` is the whole document.
///
/// Tokens are kept decoded (`~1` → `/`, `~0` → `~`), so matching compares them with the decoded
/// text of object keys. A token that is a canonical decimal (`0`, `17`, never `01` or `-`) also
/// selects an array element.
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    public let tokens: [String]

    /// Parses the pointer text; a non-empty text must start with `/`, and `~` must be followed by
    /// `0` or `1`. The one RFC 6901 parser: config values, fields and query fields all use it.
    public init(_ text: String) throws(FolioError) {
        if text.isEmpty {
            tokens = []
            return
        }
        guard text.utf8.first == UInt8(ascii: "/") else {
            throw .invalidJSONPointer(
                "'\(text)' is not a JSON Pointer: it must be \"\" (the whole body) or start with '/'")
        }
        var parsed: [String] = []
        for raw in text.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst() {
            var decoded: [UInt8] = []
            decoded.reserveCapacity(raw.count)
            var iterator = raw.makeIterator()
            while let byte = iterator.next() {
                guard byte == UInt8(ascii: "~") else {
                    decoded.append(byte)
                    continue
                }
                switch iterator.next() {
                case UInt8(ascii: "0"): decoded.append(UInt8(ascii: "~"))
                case UInt8(ascii: "1"): decoded.append(UInt8(ascii: "/"))
                default:
                    throw .invalidJSONPointer(
                        "'\(text)' is not a JSON Pointer: '~' must be written ~0, and '/' inside a name ~1")
                }
            }
            parsed.append(String(decoding: decoded, as: UTF8.self))
        }
        tokens = parsed
    }

    /// A pointer to the given (unescaped) tokens.
    public init(tokens: [String]) {
        self.tokens = tokens
    }

    public static let root = JSONPointer(tokens: [])

    /// The pointer text, re-escaped.
    public var description: String {
        tokens.map { "/" + $0.replacingTildeAndSlash() }.joined()
    }

    /// The array index a token selects, or nil when it is not a canonical non-negative decimal.
    static func arrayIndex(_ token: String) -> Int? {
        let utf8 = token.utf8
        guard let first = utf8.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else { return nil }
        if first == UInt8(ascii: "0") { return utf8.count == 1 ? 0 : nil }
        var value = 0
        for byte in utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            if o1 || o2 { return nil }
            value = sum
        }
        return value
    }
}

extension String {
    fileprivate func replacingTildeAndSlash() -> String {
        guard utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return self }
        var out = ""
        for character in unicodeScalars {
            switch character {
            case "~": out += "~0"
            case "/": out += "~1"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
