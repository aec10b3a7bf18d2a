import Foundation

extension SectionIndex {
    /// The section title a key (or any spelling of a title) falls under, folded as Folio folds
    /// `sectionKey` (docs/API.md, "Sorting"): a Latin letter loses its marks and is uppercased
    /// (`é` → `E`; `Æ Œ Ø Ł Đ Ð Þ ß ı ŋ ſ ĸ` → `A O O L D D T S I N S K`), other Latin letters are
    /// `#`; a letter of another script is uppercased and keeps its marks (`й` → `Й`); anything
    /// else is `#`.
    public static func title(of key: String) -> String {
        guard let first = key.first else { return "#" }
        let scalars = Array(String(first).decomposedStringWithCanonicalMapping.unicodeScalars)
        guard let base = scalars.first, isLetter(base) else { return "#" }
        guard isLatin(base) else { return String(first).uppercased().precomposedStringWithCanonicalMapping }
        if let mapped = latinSpecials[base] { return mapped }
        let upper = String(base).uppercased()
        guard upper.unicodeScalars.count == 1, let letter = upper.unicodeScalars.first, letter.value &- 0x41 < 26 else {
            return "#"
        }
        return upper
    }

    private static let latinSpecials: [Unicode.Scalar: String] = [
        "Æ": "A", "æ": "A", "Œ": "O", "œ": "O", "Ø": "O", "ø": "O", "Ł": "L", "ł": "L", "Đ": "D", "đ": "D",
        "Ð": "D", "ð": "D", "Þ": "T", "þ": "T", "ß": "S", "ẞ": "S", "ı": "I", "Ŋ": "N", "ŋ": "N", "ſ": "S",
        "ĸ": "K",
    ]

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: true
        default: false
        }
    }

    /// The Latin blocks (Basic Latin to Latin Extended-B, IPA, Latin Extended Additional, C, D,
    /// E, full-width forms).
    private static func isLatin(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x41...0x24F, 0x250...0x2AF, 0x1D00...0x1DBF, 0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xA720...0xA7FF,
            0xAB30...0xAB6F, 0xFF21...0xFF3A, 0xFF41...0xFF5A:
            true
        default: false
        }
    }
}
