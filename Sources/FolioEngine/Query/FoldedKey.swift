import Foundation

/// A string key folded as docs/API.md, "Sorting", says, split into its title and the rest.
///
/// Sorting compares `(title class, title, rest, exact bytes)`: for a letter title the folded key
/// starts with the title, so this is "the first character by title order, the rest by scalar
/// value". Within `#` the whole folded key is the rest, so `1…` sorts before `2…` there.
struct FoldedKey {
    enum Title: Equatable {
        /// `A`–`Z` as 0–25.
        case letter(UInt8)
        /// The first grapheme cluster of a key in another script (NFD UTF-8 at the start of `bytes`).
        case other
        case hash
    }

    /// The folded key as UTF-8 (NFD based; Latin letters reduced to `A`–`Z` or `#`).
    var bytes: [UInt8]
    var title: Title
    /// How many leading bytes of `bytes` are the title (1 for a letter, 0 for `#`).
    var titleLength: Int

    var titleBytes: ArraySlice<UInt8> { bytes[..<titleLength] }
    var rest: ArraySlice<UInt8> { bytes[titleLength...] }

    /// Folds a decoded string given as UTF-8.
    init(utf8: UnsafeBufferPointer<UInt8>) {
        if let fast = Self.foldLatin(utf8) {
            self = fast
        } else {
            self = Self.foldGeneral(String(decoding: utf8, as: UTF8.self))
        }
    }

    init(_ string: String) {
        var copy = string
        self = copy.withUTF8 { FoldedKey(utf8: $0) }
    }

    private init(bytes: [UInt8], title: Title, titleLength: Int) {
        self.bytes = bytes
        self.title = title
        self.titleLength = titleLength
    }

    /// ASCII and precomposed Latin letters (with marks from U+0300–U+036F after them): no
    /// normalization needed, since every mark on a Latin letter is dropped. Nil otherwise.
    private static func foldLatin(_ utf8: UnsafeBufferPointer<UInt8>) -> FoldedKey? {
        var latin = true
        let out = [UInt8](unsafeUninitializedCapacity: utf8.count) { buffer, initialized in
            guard let length = latinFold(utf8, into: buffer.baseAddress!) else {
                latin = false
                return
            }
            initialized = length
        }
        guard latin else { return nil }
        let count = utf8.count
        let first = out.first ?? 0
        // A letter title only if the key starts with a letter (a Latin one folded to A–Z).
        let startsWithLetter = count > 0 && (utf8[0] >= 0x80 || (utf8[0] | 0x20) &- 0x61 < 26)
        if startsWithLetter, first &- 0x41 < 26 {
            return FoldedKey(bytes: out, title: .letter(first - 0x41), titleLength: 1)
        }
        return FoldedKey(bytes: out, title: .hash, titleLength: 0)
    }

    /// Appends the folded bytes of `utf8` to `out` when it is ASCII and precomposed Latin
    /// letters (with marks from U+0300–U+036F after them), as `FoldedKey(utf8:)` folds it;
    /// false, with `out` as it was, otherwise. A search column folds every value so, into one
    /// arena, without a key of its own per value.
    static func appendLatinFold(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) -> Bool {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(utf8.count, 1)) { buffer in
            guard let length = latinFold(utf8, into: buffer.baseAddress!) else { return false }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<length]))
            return true
        }
    }

    /// Folds `utf8` into `out` (room for `utf8.count` bytes: a fold is never longer) when it is
    /// ASCII and precomposed Latin letters, marks after them dropped; the bytes written, or nil
    /// for anything else (`foldGeneral` then).
    private static func latinFold(_ utf8: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int? {
        var written = 0
        var latinBefore = false
        var index = 0
        let count = utf8.count
        while index < count {
            let byte = utf8[index]
            if byte < 0x80 {
                if (byte | 0x20) &- 0x61 < 26 {
                    out[written] = byte & ~0x20
                    latinBefore = true
                } else {
                    out[written] = byte
                    latinBefore = false
                }
                written += 1
                index += 1
                continue
            }
            guard byte & 0xE0 == 0xC0 || byte & 0xF0 == 0xE0 else { return nil }
            let length = byte & 0xE0 == 0xC0 ? 2 : 3
            guard index + length <= count else { return nil }
            var value = UInt32(byte & (length == 2 ? 0x1F : 0x0F))
            for next in index + 1..<index + length {
                guard utf8[next] & 0xC0 == 0x80 else { return nil }
                value = value << 6 | UInt32(utf8[next] & 0x3F)
            }
            index += length
            if value &- 0x300 < 0x70 {
                guard latinBefore else { return nil }
                continue
            }
            let folded = Latin.fastFold(value)
            guard folded != 0 else { return nil }
            out[written] = folded
            written += 1
            latinBefore = true
        }
        return written
    }

    /// Everything else: Foundation's NFD, then per scalar the folding rules.
    private static func foldGeneral(_ string: String) -> FoldedKey {
        let decomposed = string.decomposedStringWithCanonicalMapping
        var out: [UInt8] = []
        out.reserveCapacity(decomposed.utf8.count)
        var latinBefore = false
        var firstIsLetter: Bool?
        var firstIsLatin = false
        for scalar in decomposed.unicodeScalars {
            let category = scalar.properties.generalCategory
            let isLetter = Latin.isLetter(category)
            if firstIsLetter == nil {
                firstIsLetter = isLetter
                firstIsLatin = isLetter && Latin.isLatinScript(scalar.value)
            }
            if Latin.isMark(category) {
                if !latinBefore { JSONScan.appendUTF8(scalar, to: &out) }
            } else if isLetter, Latin.isLatinScript(scalar.value) {
                out.append(Latin.baseFold(scalar))
                latinBefore = true
            } else if isLetter {
                for upper in scalar.properties.uppercaseMapping.unicodeScalars {
                    JSONScan.appendUTF8(upper, to: &out)
                }
                latinBefore = false
            } else {
                JSONScan.appendUTF8(scalar, to: &out)
                latinBefore = false
            }
        }
        guard firstIsLetter == true else { return FoldedKey(bytes: out, title: .hash, titleLength: 0) }
        if firstIsLatin {
            let first = out[0]
            if first &- 0x41 < 26 { return FoldedKey(bytes: out, title: .letter(first - 0x41), titleLength: 1) }
            return FoldedKey(bytes: out, title: .hash, titleLength: 0)
        }
        let folded = String(decoding: out, as: UTF8.self)
        let cluster = folded.first.map { $0.utf8.count } ?? 0
        return FoldedKey(bytes: out, title: .other, titleLength: cluster)
    }
}

extension FoldedKey {
    /// The title as shown to clients: `A`–`Z`, `#`, or the other script's cluster recomposed
    /// (NFC), so `йога` is under `Й` (U+0419), not under `И` + U+0306.
    var displayTitle: String {
        switch title {
        case .letter(let index): String(UnicodeScalar(0x41 + index))
        case .hash: "#"
        case .other: Self.displayTitle(otherTitle: titleBytes)
        }
    }

    static func displayTitle(otherTitle: some Collection<UInt8>) -> String {
        String(decoding: otherTitle, as: UTF8.self).precomposedStringWithCanonicalMapping
    }

    /// Class for title order: letters, other scripts, `#`.
    var titleClass: UInt8 {
        switch title {
        case .letter: 0
        case .other: 1
        case .hash: 2
        }
    }
}

/// The full sort key of a string outside a column (filters, reference checks): compares exactly
/// like the column's ranks, rests and exact bytes.
struct StringOrderKey: Comparable {
    var titleClass: UInt8
    var title: [UInt8]
    var rest: [UInt8]
    var exact: [UInt8]

    init(exact: [UInt8]) {
        let folded = exact.withUnsafeBufferPointer { FoldedKey(utf8: $0) }
        titleClass = folded.titleClass
        title = Array(folded.titleBytes)
        rest = Array(folded.rest)
        self.exact = exact
    }

    static func < (a: StringOrderKey, b: StringOrderKey) -> Bool {
        if a.titleClass != b.titleClass { return a.titleClass < b.titleClass }
        if a.title != b.title { return a.title.lexicographicallyPrecedes(b.title) }
        if a.rest != b.rest { return a.rest.lexicographicallyPrecedes(b.rest) }
        return a.exact.lexicographicallyPrecedes(b.exact)
    }
}
