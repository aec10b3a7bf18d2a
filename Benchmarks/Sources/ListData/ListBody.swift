/// Deterministic upstream list bodies for benchmarks: a compact JSON array of product-like
/// objects of about 100 bytes each, the same bytes on every run and machine.
///
/// Mostly ASCII like typical API payloads, with a few accented names (multi-byte UTF-8) and
/// escapes so the indexer's slower paths are exercised in proportion.
public enum ListBody {
    /// `[{"id":0,…},{"id":1,…},…]` with `count` elements.
    public static func make(count: Int, seed: UInt64 = 0x5EED_F011_0000_0001) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        var body: [UInt8] = []
        body.reserveCapacity(count * 100 + 2)
        body.append(UInt8(ascii: "["))
        for id in 0..<count {
            if id > 0 { body.append(UInt8(ascii: ",")) }
            appendItem(id: id, to: &body, random: &random)
        }
        body.append(UInt8(ascii: "]"))
        return body
    }

    private static let syllables: [String] = [
        "ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ber", "dan", "fel", "gor", "hal", "jun", "kor", "lin",
    ]
    private static let accented: [String] = ["é", "ø", "ü", "ñ", "å", "ç"]
    private static let categories: [String] = [
        "tools", "garden", "kitchen", "office", "toys", "books", "sports", "audio",
    ]
    private static let tags: [String] = ["blue", "red", "small", "large", "eco", "sale", "new", "classic"]

    private static func appendItem(id: Int, to body: inout [UInt8], random: inout SplitMix64) {
        let r = random.next()
        body += #"{"id":"#.utf8
        body += String(id).utf8
        body += #","name":""#.utf8
        body += word(r, accent: id % 8 == 3).utf8
        body.append(UInt8(ascii: " "))
        body += word(r >> 16, accent: false).utf8
        if id % 64 == 17 { body += #" \"pro\""#.utf8 }
        body += #"","category":""#.utf8
        body += categories[Int(r >> 32) % categories.count].utf8
        let cents = Int((r >> 36) % 20_000) + 100
        body += #"","price":"#.utf8
        body += String(cents / 100).utf8
        body.append(UInt8(ascii: "."))
        body.append(UInt8(ascii: "0") + UInt8(cents / 10 % 10))
        body.append(UInt8(ascii: "0") + UInt8(cents % 10))
        body += #","tags":[""#.utf8
        body += tags[Int(r >> 53) % tags.count].utf8
        body += #"",""#.utf8
        body += tags[Int(r >> 58) % tags.count].utf8
        body += #""]}"#.utf8
    }

    /// A capitalised three-syllable word from the bits of `bits`.
    private static func word(_ bits: UInt64, accent: Bool) -> String {
        var text = ""
        for index in 0..<3 {
            var syllable = syllables[Int((bits >> (4 * UInt64(index))) & 15)]
            if index == 0 { syllable = syllable.prefix(1).uppercased() + syllable.dropFirst() }
            text += syllable
        }
        if accent { text += accented[Int(bits >> 12) % accented.count] }
        return text
    }
}

/// SplitMix64: tiny, fast and the same everywhere (Swift's own generators are not seedable).
public struct SplitMix64 {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
