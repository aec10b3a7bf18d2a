import Foundation

@testable import FolioEngine

/// Fixtures and a slow, obvious reference for the sorting and section tests (docs/API.md,
/// "Sorting", "Section index"), written without the engine's code: Foundation NFD, Unicode names to
/// tell Latin letters, Swift's `uppercased()`, whole folded strings and `Array.sorted`.
enum SectionsSupport {
    /// An `ItemList` over `[e0,e1,…]`, element ranges computed from the texts themselves.
    static func list(_ elements: [String]) -> ItemList {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        var starts: [UInt32] = []
        var ends: [UInt32] = []
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(contentsOf: Array(", ".utf8)) }
            starts.append(UInt32(bytes.count))
            bytes.append(contentsOf: Array(element.utf8))
            ends.append(UInt32(bytes.count))
        }
        bytes.append(UInt8(ascii: "]"))
        return ItemList(bytes: bytes, starts: starts, ends: ends)
    }

    // MARK: JSON text

    /// A JSON string literal; with `escapeAll`, every non-ASCII scalar and some letters as `\u`.
    static func jsonString(_ string: String, escapeAll: Bool = false) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default:
                if scalar.value < 0x20 || (escapeAll && (scalar.value >= 0x80 || scalar == "e")) {
                    for unit in String(scalar).utf16 { out += String(format: "\\u%04x", unit) }
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    // MARK: Reference folding (docs/API.md, "Sorting", read literally)

    static let table: [Unicode.Scalar: Character] = {
        var table: [Unicode.Scalar: Character] = [:]
        let pairs: [(String, Character)] = [
            ("Ææ", "A"), ("Œœ", "O"), ("Øø", "O"), ("Łł", "L"), ("Đđ", "D"), ("Ðð", "D"), ("Þþ", "T"),
            ("ßẞ", "S"), ("ı", "I"), ("Ŋŋ", "N"), ("ſ", "S"), ("ĸ", "K"),
        ]
        for (letters, target) in pairs { for scalar in letters.unicodeScalars { table[scalar] = target } }
        return table
    }()

    static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: true
        default: false
        }
    }

    static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    static func isLatin(_ scalar: Unicode.Scalar) -> Bool {
        isLetter(scalar) && (scalar.properties.name ?? "").contains("LATIN ")
    }

    static func referenceFold(_ key: String) -> String {
        var out = String.UnicodeScalarView()
        var afterLatin = false
        for scalar in key.decomposedStringWithCanonicalMapping.unicodeScalars {
            if isMark(scalar) {
                if !afterLatin { out.append(scalar) }
            } else if isLatin(scalar) {
                let upper = table[scalar].map(String.init) ?? String(scalar).uppercased()
                out.append(contentsOf: (upper.count == 1 && ("A"..."Z").contains(upper) ? upper : "#").unicodeScalars)
                afterLatin = true
            } else if isLetter(scalar) {
                out.append(contentsOf: String(scalar).uppercased().unicodeScalars)
                afterLatin = false
            } else {
                out.append(scalar)
                afterLatin = false
            }
        }
        return String(out)
    }

    static func referenceTitle(_ key: String) -> String {
        guard let first = key.decomposedStringWithCanonicalMapping.unicodeScalars.first, isLetter(first) else {
            return "#"
        }
        let folded = referenceFold(key)
        if isLatin(first) { return String(folded.unicodeScalars.first!) }
        return String(folded.first!)
    }

    /// (class, scalars) for title order: A–Z, other scripts by code point, `#`.
    static func titleRank(_ title: String) -> (Int, [UInt32]) {
        if title == "#" { return (2, []) }
        let scalars = title.decomposedStringWithCanonicalMapping.unicodeScalars.map(\.value)
        if scalars.count == 1, (0x41...0x5A).contains(scalars[0]) { return (0, scalars) }
        return (1, scalars)
    }

    static func lexicographic<T: Comparable>(_ a: [T], _ b: [T]) -> Int {
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    /// What the string order of docs/API.md, "Sorting", compares, computed once per string.
    struct StringKey {
        var titleClass: Int
        var title: [UInt32]
        var folded: [UInt32]
        var exact: [UInt8]

        init(_ text: String) {
            (titleClass, title) = SectionsSupport.titleRank(SectionsSupport.referenceTitle(text))
            folded = SectionsSupport.referenceFold(text).unicodeScalars.map(\.value)
            exact = Array(text.utf8)
        }
    }

    /// The string order: title order, then the folded key by scalar value, then exact UTF-8.
    static func compareStrings(_ a: StringKey, _ b: StringKey) -> Int {
        if a.titleClass != b.titleClass { return a.titleClass < b.titleClass ? -1 : 1 }
        let titles = lexicographic(a.title, b.title)
        if titles != 0 { return titles }
        let folded = lexicographic(a.folded, b.folded)
        if folded != 0 { return folded }
        return lexicographic(a.exact, b.exact)
    }

    // MARK: Reference values and orders

    enum Value {
        case missing
        case null
        case number(String)
        case string(String)
        case bool(Bool)
        case composite(String)

        var json: String? {
            switch self {
            case .missing: nil
            case .null: "null"
            case .number(let text): text
            case .string(let text): SectionsSupport.jsonString(text)
            case .bool(let flag): flag ? "true" : "false"
            case .composite(let text): text
            }
        }
    }

    static func decimal(_ text: String) -> Decimal { Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))! }

    /// A value with its reference sort key precomputed.
    enum Key {
        case missing
        case number(Decimal)
        case string(StringKey)
        case bool(Bool)
        case composite

        init(_ value: Value) {
            switch value {
            case .missing, .null: self = .missing
            case .number(let text): self = .number(SectionsSupport.decimal(text))
            case .string(let text): self = .string(StringKey(text))
            case .bool(let flag): self = .bool(flag)
            case .composite: self = .composite
            }
        }
    }

    static func compare(_ a: Value, _ b: Value, sectionRule: Bool, descending: Bool) -> Int {
        compare(Key(a), Key(b), sectionRule: sectionRule, descending: descending)
    }

    /// Tier and in-tier comparison for the cross-type rule (`sectionRule: false`) or the sectionKey
    /// rule; descending reverses everything but null/missing.
    static func compare(_ a: Key, _ b: Key, sectionRule: Bool, descending: Bool) -> Int {
        func tier(_ value: Key) -> Int {
            switch value {
            case .number: sectionRule ? 1 : 0
            case .string: sectionRule ? 0 : 1
            case .bool: sectionRule ? 1 : 2
            case .composite: sectionRule ? 1 : 3
            case .missing: sectionRule ? 2 : 4
            }
        }
        let (ta, tb) = (tier(a), tier(b))
        let nullTier = sectionRule ? 2 : 4
        var result: Int
        if ta != tb {
            result = ta < tb ? -1 : 1
        } else {
            switch (a, b) {
            case (.string(let x), .string(let y)): result = compareStrings(x, y)
            case (.number(let p), .number(let q)) where !sectionRule:
                result = p == q ? 0 : (p < q ? -1 : 1)
            case (.bool(let x), .bool(let y)) where !sectionRule: result = x == y ? 0 : (x ? 1 : -1)
            default: result = 0
            }
        }
        if descending, ta != nullTier, tb != nullTier { result = -result }
        return result
    }

    static func element(id: Int, fields: [(String, Value)]) -> String {
        var members = ["\"id\":\(id)"]
        for (name, value) in fields {
            if let json = value.json { members.append("\(jsonString(name)):\(json)") }
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    // MARK: Random names

    static let namePool: [String] = [
        "anna", "Bob", "zoe", "Zed", "Émile", "émile", "Emile", "e\u{301}cole", "école", "ECOLE", "Ærø", "æble",
        "Łukasz", "łódź", "Øyvind", "ørn", "Đorđe", "Ðan", "Þór", "þorn", "straße", "ßeta", "ıi", "ŋa", "Ŋb", "ſx",
        "ĸa", "Œuvre", "œil", "ǝx", "ɐb", "Ａbc", "йога", "Йошкар", "иван", "Ивано", "Ωmega", "ωmega", "άλφα",
        "Αλφα", "日本", "中国", "한국", "한글", "42nd", "7", "_x", "😀smile", "😀", " space", "1abc", "#tag",
        "", "a", "Z", "ÿes", "Ÿ", "Ñandú", "nandu", "İstanbul", "ǅemal", "Ĳssel", "ḃ", "ẞig",
    ]

    static func randomName(_ random: inout SplitMix64) -> String {
        var name = namePool[Int(random.next() % UInt64(namePool.count))]
        let suffixes = ["", "a", "Z", "1", " ", "-", "é", "ö", "x", "Y", "ø", "й"]
        for _ in 0..<Int(random.next() % 4) { name += suffixes[Int(random.next() % UInt64(suffixes.count))] }
        return name
    }

    static let numberPool = [
        "0", "-0", "1", "1.0", "1e0", "10", "2.5", "-3", "1e3", "999.5", "9007199254740993",
        "9007199254740992", "-1e-2", "0.001", "12345678901234567890", "1E+2", "100",
    ]

    /// A value for the sorted field: mostly strings, sometimes anything else.
    static func randomValue(_ random: inout SplitMix64, stringsOnly: Bool = false) -> Value {
        let roll = random.next() % 20
        if stringsOnly || roll < 13 { return .string(randomName(&random)) }
        switch roll {
        case 13, 14: return .number(numberPool[Int(random.next() % UInt64(numberPool.count))])
        case 15: return .bool(random.next() % 2 == 0)
        case 16: return random.next() % 2 == 0 ? .composite("{\"x\":1}") : .composite("[1,2]")
        case 17: return .null
        default: return .missing
        }
    }

    /// Stable reference sort: the comparator, then upstream position.
    static func referenceOrder(_ values: [Value], sectionRule: Bool, descending: Bool) -> [UInt32] {
        let keys = values.map(Key.init)
        return Array(0..<UInt32(values.count)).sorted { x, y in
            let result = compare(keys[Int(x)], keys[Int(y)], sectionRule: sectionRule, descending: descending)
            return result != 0 ? result < 0 : x < y
        }
    }

    /// The section title each value belongs to in the alphabetical index.
    static func referenceSectionTitle(_ value: Value) -> String {
        if case .string(let text) = value { return referenceTitle(text) }
        return "#"
    }
}
