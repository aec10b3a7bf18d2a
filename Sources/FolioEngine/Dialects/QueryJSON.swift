/// A JSON value sent inside a query parameter (react-admin's `range=[0,24]`,
/// `sort=["title","ASC"]`, `filter={…}`): small, so it is decoded into values, numbers kept as
/// their text (filters compare them by exact decimal value later).
enum QueryJSON: Equatable {
    case string(String)
    /// The number's text as sent, validated by JSON's grammar.
    case number(String)
    case bool(Bool)
    case null
    case array([QueryJSON])
    /// Members in the order sent.
    case object([(key: String, value: QueryJSON)])

    static func == (lhs: QueryJSON, rhs: QueryJSON) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)), (.number(let a), .number(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.map(\.key) == b.map(\.key) && a.map(\.value) == b.map(\.value)
        default: false
        }
    }

    /// Parses the whole text as one JSON value; nil when it is not exactly that. Nesting is
    /// capped so a hostile query cannot exhaust the stack.
    static func parse(_ text: String) -> QueryJSON? {
        var parser = Parser(bytes: Array(text.utf8))
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipSpace()
        return parser.index == parser.bytes.count ? value : nil
    }

    /// The text a filter compares: a string's content, a number's text, `true`/`false`; nil for
    /// null, arrays and objects.
    var scalarText: String? {
        switch self {
        case .string(let text), .number(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .null, .array, .object: nil
        }
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        static let maxDepth = 16

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value(depth: Int) -> QueryJSON? {
            skipSpace()
            guard index < bytes.count, depth < Self.maxDepth else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""): return string().map(QueryJSON.string)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            default: return number()
            }
        }

        private mutating func literal(_ text: StaticString, _ value: QueryJSON) -> QueryJSON? {
            let count = text.utf8CodeUnitCount
            guard index + count <= bytes.count,
                bytes[index..<index + count].elementsEqual(
                    UnsafeBufferPointer(start: text.utf8Start, count: count))
            else { return nil }
            index += count
            return value
        }

        private mutating func array(depth: Int) -> QueryJSON? {
            index += 1
            var elements: [QueryJSON] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                guard let element = value(depth: depth + 1) else { return nil }
                elements.append(element)
                skipSpace()
                guard index < bytes.count else { return nil }
                index += 1
                if bytes[index - 1] == UInt8(ascii: "]") { return .array(elements) }
                guard bytes[index - 1] == UInt8(ascii: ",") else { return nil }
            }
        }

        private mutating func object(depth: Int) -> QueryJSON? {
            index += 1
            var members: [(key: String, value: QueryJSON)] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                guard let member = value(depth: depth + 1) else { return nil }
                members.append((key, member))
                skipSpace()
                guard index < bytes.count else { return nil }
                index += 1
                if bytes[index - 1] == UInt8(ascii: "}") { return .object(members) }
                guard bytes[index - 1] == UInt8(ascii: ",") else { return nil }
            }
        }

        /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, kept as text.
        private mutating func number() -> QueryJSON? {
            let start = index
            func digits() -> Int {
                let from = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                return index - from
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            let leadingZero = index < bytes.count && bytes[index] == UInt8(ascii: "0")
            let integer = digits()
            guard integer > 0, !(leadingZero && integer > 1) else { return nil }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { return nil }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard digits() > 0 else { return nil }
            }
            return .number(String(decoding: bytes[start..<index], as: UTF8.self))
        }

        /// A quoted string, checked against JSON's grammar here and its escapes then resolved by
        /// `JSONScan.decode` (lone surrogates refused); nil if malformed.
        private mutating func string() -> String? {
            index += 1
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == JSONScan.quote {
                    let contents = start..<index
                    index += 1
                    let decoded = bytes.withUnsafeBufferPointer {
                        JSONScan.decode($0, contents, loneSurrogates: .reject)
                    }
                    return decoded.flatMap { String(validating: $0, as: UTF8.self) }
                }
                guard byte >= 0x20 else { return nil }
                guard byte == JSONScan.backslash else {
                    index += 1
                    continue
                }
                guard index + 1 < bytes.count else { return nil }
                if bytes[index + 1] == UInt8(ascii: "u") {
                    guard index + 6 <= bytes.count,
                        bytes[index + 2..<index + 6].allSatisfy({ URIText.hexValue($0) != nil })
                    else { return nil }
                    index += 6
                } else {
                    guard "\"\\/bfnrt".utf8.contains(bytes[index + 1]) else { return nil }
                    index += 2
                }
            }
            return nil
        }
    }
}
