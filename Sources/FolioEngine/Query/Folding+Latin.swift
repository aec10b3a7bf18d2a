import Foundation

/// Which scalars count as Latin letters, and what folding maps each one to
/// (docs/API.md, "Sorting").
///
/// Swift exposes no Script property, so the Latin script is the ranges of Unicode's Scripts.txt
/// (15.1) for `Latin`, intersected with the letter categories.
enum Latin {
    private static let ranges: [ClosedRange<UInt32>] = [
        0x0041...0x005A, 0x0061...0x007A, 0x00AA...0x00AA, 0x00BA...0x00BA, 0x00C0...0x00D6,
        0x00D8...0x00F6, 0x00F8...0x02B8, 0x02E0...0x02E4, 0x1D00...0x1D25, 0x1D2C...0x1D5C,
        0x1D62...0x1D65, 0x1D6B...0x1D77, 0x1D79...0x1DBE, 0x1E00...0x1EFF, 0x2071...0x2071,
        0x207F...0x207F, 0x2090...0x209C, 0x212A...0x212B, 0x2132...0x2132, 0x214E...0x214E,
        0x2160...0x2188, 0x2C60...0x2C7F, 0xA722...0xA787, 0xA78B...0xA7CA, 0xA7D0...0xA7D9,
        0xA7F2...0xA7FF, 0xAB30...0xAB5A, 0xAB5C...0xAB64, 0xAB66...0xAB69, 0xFB00...0xFB06,
        0xFF21...0xFF3A, 0xFF41...0xFF5A, 0x10780...0x107BA, 0x1DF00...0x1DF2A,
    ]

    /// The folding table of docs/API.md, "Sorting", in both cases (uppercasing happens first, so
    /// `æ` and `Æ` both reach it).
    private static let special: [UInt32: UInt8] = {
        let pairs: [(String, Character)] = [
            ("Ææ", "A"), ("Œœ", "O"), ("Øø", "O"), ("Łł", "L"), ("Đđ", "D"), ("Ðð", "D"),
            ("Þþ", "T"), ("ßẞ", "S"), ("ı", "I"), ("Ŋŋ", "N"), ("ſ", "S"), ("ĸ", "K"),
        ]
        var table: [UInt32: UInt8] = [:]
        for (letters, target) in pairs {
            for scalar in letters.unicodeScalars { table[scalar.value] = target.asciiValue! }
        }
        return table
    }()

    static func isLetter(_ category: Unicode.GeneralCategory) -> Bool {
        switch category {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: true
        default: false
        }
    }

    static func isMark(_ category: Unicode.GeneralCategory) -> Bool {
        switch category {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    static func isLatinScript(_ value: UInt32) -> Bool {
        if value < 0x80 { return (value | 0x20) &- 0x61 < 26 }
        var low = 0
        var high = ranges.count
        while low < high {
            let mid = (low + high) / 2
            if ranges[mid].upperBound < value { low = mid + 1 } else { high = mid }
        }
        return low < ranges.count && ranges[low].contains(value)
    }

    /// Fold of a Latin letter that has no further canonical decomposition: `A`–`Z` or `#`.
    static func baseFold(_ scalar: Unicode.Scalar) -> UInt8 {
        let value = scalar.value
        if value < 0x80 { return UInt8(value) & ~0x20 }
        if let mapped = special[value] { return mapped }
        let upper = scalar.properties.uppercaseMapping.unicodeScalars
        if upper.count == 1, let only = upper.first {
            if only.value &- 0x41 < 26 { return UInt8(only.value) }
            if let mapped = special[only.value] { return mapped }
        }
        return UInt8(ascii: "#")
    }

    /// Precomputed fold of the precomposed Latin letters of Latin-1, Extended-A/B, IPA and Latin
    /// Extended Additional: NFD, keep the base, fold it. 0 = not a Latin letter (take the slow path).
    private static let fastTable: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 0x2B0 + 0x100)
        for value in UInt32(0x80)..<0x2B0 { table[Int(value)] = computeFast(value) }
        for value in UInt32(0x1E00)..<0x1F00 { table[0x2B0 + Int(value - 0x1E00)] = computeFast(value) }
        return table
    }()

    private static func computeFast(_ value: UInt32) -> UInt8 {
        guard let scalar = Unicode.Scalar(value), isLetter(scalar.properties.generalCategory),
            isLatinScript(value)
        else { return 0 }
        let decomposed = String(Character(scalar)).decomposedStringWithCanonicalMapping.unicodeScalars
        guard let base = decomposed.first, isLatinScript(base.value) else { return 0 }
        return baseFold(base)
    }

    /// The fast fold of a precomposed Latin letter, or 0 when the scalar needs the general path.
    @inline(__always)
    static func fastFold(_ value: UInt32) -> UInt8 {
        if value < 0x2B0 { return fastTable[Int(value)] }
        if value &- 0x1E00 < 0x100 { return fastTable[0x2B0 + Int(value - 0x1E00)] }
        return 0
    }
}
