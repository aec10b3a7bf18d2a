import Foundation

/// Folding, section titles and title order (docs/API.md, "Sorting").
///
/// Follows Folio's own table rather than Foundation's `folding(options:)`, which on Linux
/// keeps `Ø Æ Ł Đ Þ Œ` and merges `Й` into `И`.
public enum Folding {
    /// Folding of a key: NFD; Latin letters lose their combining marks, are uppercased and
    /// mapped through `Æ→A, Œ→O, Ø→O, Ł→L, Đ→D, Ð→D, Þ→T, ß→S, ı→I, ŋ→N, ſ→S, ĸ→K`; other Latin
    /// letters without an `A`–`Z` base become `#`; letters of other scripts are uppercased and
    /// keep their marks. Everything else (digits, punctuation, emoji) is kept as is.
    ///
    /// The result is in decomposed form (`й` folds to `И` + U+0306, which Swift's `==` treats as
    /// equal to `Й`).
    public static func fold(_ key: String) -> String {
        String(decoding: FoldedKey(key).bytes, as: UTF8.self)
    }

    /// Section title of a key: `A`–`Z` for a key starting with a Latin letter that has a base
    /// letter, the first grapheme cluster of the folded key (recomposed, e.g. `Й`) for a key
    /// starting with a letter of another script, `#` for everything else (`42nd`, `_x`, `😀`,
    /// `ǝ`, the empty string).
    public static func title(ofKey key: String) -> String {
        FoldedKey(key).displayTitle
    }

    /// The title a `beginsWith` value selects, or nil when it selects none (a 400).
    ///
    /// The value must be one grapheme cluster, which then folds like a key: `é` → `E`, `ß` → `S`,
    /// `й` → `Й`, `1` or `#` → `#`. Empty values and longer ones (`Ab`) are nil: a title is
    /// a single cluster, so they do not fold to exactly one title.
    public static func title(forBeginsWith value: String) -> String? {
        guard value.count == 1 else { return nil }
        return title(ofKey: value)
    }

    /// Title order: `A`–`Z`, then other scripts' titles by code point (of their decomposed
    /// form, the order their keys sort in), then `#`.
    public static func titleOrder(_ a: String, _ b: String) -> Bool {
        let (aClass, aBytes) = orderKey(a)
        let (bClass, bBytes) = orderKey(b)
        if aClass != bClass { return aClass < bClass }
        return aBytes.lexicographicallyPrecedes(bBytes)
    }

    private static func orderKey(_ title: String) -> (UInt8, [UInt8]) {
        if title == "#" { return (2, []) }
        let scalars = title.unicodeScalars
        if scalars.count == 1, let only = scalars.first, only.value &- 0x41 < 26 {
            return (0, [UInt8(only.value)])
        }
        return (1, Array(title.decomposedStringWithCanonicalMapping.utf8))
    }
}
