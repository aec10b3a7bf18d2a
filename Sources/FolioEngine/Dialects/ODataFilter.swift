/// OData v4's `$filter` as far as `odata` routes take it (docs/API.md, "More dialects"): comparisons `FIELD OP
/// LITERAL` with `eq ne gt ge lt le`, joined by `and`; a literal is a number (`-1.5e3`) or a single-quoted string
/// (`''` for a quote). Anything else (`or`, `not`, parentheses, functions) is a 400 saying what was expected where.
enum ODataFilter {
    struct Comparison: Equatable {
        let field: String
        let comparison: ListRequest.Comparison
        /// The literal's text: a string's contents with `''` read as `'`, a number as written.
        let value: String
    }

    static func parse(_ text: String) throws(FolioError) -> [Comparison] {
        var scanner = Scanner(text: Array(text.utf8))
        var result: [Comparison] = []
        repeat {
            let field = try scanner.field()
            let comparison = try scanner.operator(after: field)
            let value = try scanner.literal(after: "\(field) \(comparison.name)")
            result.append(Comparison(field: field, comparison: comparison.value, value: value))
        } while try scanner.and()
        return result
    }

    private static let operators: [(name: String, value: ListRequest.Comparison)] = [
        ("eq", .equal), ("ne", .notEqual), ("gt", .greater), ("ge", .greaterOrEqual), ("lt", .less),
        ("le", .lessOrEqual),
    ]

    private struct Scanner {
        let text: [UInt8]
        var index = 0

        /// 400 naming what was expected and where (1-based character position).
        func problem(_ expected: String) -> FolioError {
            let found =
                index < text.count
                ? "found '\(DetailText.clip(String(decoding: text[index...].prefix(20), as: UTF8.self)))'"
                : "the filter ends"
            return .invalidParameter("$filter: expected \(expected) at position \(index + 1), but \(found)")
        }

        mutating func skipSpaces() {
            while index < text.count, text[index] == UInt8(ascii: " ") { index += 1 }
        }

        /// A run of letters, digits, `_` and `/` (a property path).
        mutating func word() -> String? {
            skipSpaces()
            let start = index
            while index < text.count, Self.isWordByte(text[index]) { index += 1 }
            return index > start ? String(decoding: text[start..<index], as: UTF8.self) : nil
        }

        static func isWordByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "/"), 0x80...0xFF:
                true
            default: false
            }
        }

        mutating func field() throws(FolioError) -> String {
            let start = index
            guard let name = word(), !["and", "or", "not"].contains(name) else {
                index = start
                skipSpaces()
                throw problem("a property name")
            }
            skipSpaces()
            if index < text.count, text[index] == UInt8(ascii: "(") {
                throw .invalidParameter(
                    "$filter: functions such as \(DetailText.clip(name))() are not supported; use comparisons "
                        + "(eq ne gt ge lt le) joined by and")
            }
            return name
        }

        mutating func `operator`(after field: String) throws(FolioError) -> (
            name: String, value: ListRequest.Comparison
        ) {
            let start = index
            guard let name = word(), let found = ODataFilter.operators.first(where: { $0.name == name }) else {
                index = start
                skipSpaces()
                throw problem("an operator (eq ne gt ge lt le) after '\(DetailText.clip(field))'")
            }
            return found
        }

        mutating func literal(after what: String) throws(FolioError) -> String {
            skipSpaces()
            guard index < text.count else { throw problem("a number or a 'string' after '\(DetailText.clip(what))'") }
            if text[index] == UInt8(ascii: "'") {
                var value: [UInt8] = []
                index += 1
                while index < text.count {
                    if text[index] == UInt8(ascii: "'") {
                        if index + 1 < text.count, text[index + 1] == UInt8(ascii: "'") {
                            value.append(UInt8(ascii: "'"))
                            index += 2
                            continue
                        }
                        index += 1
                        return String(decoding: value, as: UTF8.self)
                    }
                    value.append(text[index])
                    index += 1
                }
                throw problem("a closing quote for the string after '\(DetailText.clip(what))'")
            }
            let start = index
            while index < text.count, text[index] != UInt8(ascii: " "), text[index] != UInt8(ascii: ")") { index += 1 }
            let number = String(decoding: text[start..<index], as: UTF8.self)
            guard Self.isNumber(number) else {
                index = start
                throw problem("a number or a 'string' after '\(DetailText.clip(what))'")
            }
            return number
        }

        /// JSON's number grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
        static func isNumber(_ text: String) -> Bool {
            text.wholeMatch(of: /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/) != nil
        }

        /// True after an `and`, false at the end; anything else is a 400.
        mutating func and() throws(FolioError) -> Bool {
            skipSpaces()
            guard index < text.count else { return false }
            let start = index
            guard let word = word(), word == "and" else {
                index = start
                throw problem("'and' or the end of the filter (or, not and parentheses are not supported)")
            }
            return true
        }
    }
}
