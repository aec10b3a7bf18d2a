/// The scalar grammars of docs/CONFIG.md, "Grammar and validation" (durations, sizes, JSON
/// Pointers, item fields), free of YAML so they can be tested as tables. Each returns the value
/// or a message for the user.
enum ConfigurationText {
    /// `<integer><ms|s|m|h>`: exactly one unit, no sign, no spaces.
    static func duration(_ text: String) -> Result<Duration, ValueSyntaxError> {
        let units: [(suffix: String, milliseconds: Int64)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000)]
        let bad = ValueSyntaxError(
            "invalid duration '\(text)': expected an integer and one unit of ms, s, m, h (e.g. 30s, 500ms, 5m)")
        for unit in units where text.hasSuffix(unit.suffix) {
            let digits = text.dropLast(unit.suffix.count)
            // "5ms" also ends with "s"; the digits check rejects the "5m" reading.
            guard let count = decimal(digits) else { continue }
            let (total, overflow) = count.multipliedReportingOverflow(by: unit.milliseconds)
            guard !overflow, total <= maxDurationMilliseconds else {
                return .failure(ValueSyntaxError("duration '\(text)' is too large: at most 100000h (about 11 years)"))
            }
            return .success(.milliseconds(total))
        }
        return .failure(bad)
    }

    /// The longest duration any key takes: far beyond any sensible timeout or freshness, and far
    /// below what sums of durations in SwiftNIO's 64-bit nanoseconds hold (about 292 years),
    /// which a larger value overflowed at its first use.
    static let maxDurationMilliseconds: Int64 = 100_000 * 3_600_000

    /// The largest size any key takes (1 PiB): doubled or summed, it still fits in an `Int`.
    static let maxSize = 1 << 50

    /// `<integer>[B|KiB|MiB|GiB]`: bytes when there is no unit.
    static func size(_ text: String) -> Result<Int, ValueSyntaxError> {
        let units: [(suffix: String, shift: Int)] = [("KiB", 10), ("MiB", 20), ("GiB", 30), ("B", 0), ("", 0)]
        for unit in units where text.hasSuffix(unit.suffix) {
            guard let count = decimal(text.dropLast(unit.suffix.count)) else { continue }
            guard count <= Int64(maxSize >> unit.shift) else {
                return .failure(ValueSyntaxError("size '\(text)' is too large: at most 1048576GiB"))
            }
            return .success(Int(count) << unit.shift)
        }
        var message =
            "invalid size '\(text)': expected an integer with an optional unit B, KiB, MiB or GiB (e.g. 256MiB)"
        if ["KB", "MB", "GB", "K", "M", "G"].contains(where: { text.hasSuffix($0) }) {
            message += "; sizes are binary, write KiB, MiB or GiB"
        }
        return .failure(ValueSyntaxError(message))
    }

    /// Non-negative decimal digits only, fitting in Int64.
    static func decimal<S: StringProtocol>(_ text: S) -> Int64? {
        guard !text.isEmpty, text.utf8.count <= 18,
            text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return Int64(text)
    }

    /// The known key closest to an unknown one, when it is plausibly a typo: equal ignoring
    /// case, or within a small edit distance.
    static func suggestion(for key: String, among known: [String]) -> String? {
        let lowered = key.lowercased()
        if let exact = known.first(where: { $0.lowercased() == lowered }) { return exact }
        let limit = lowered.count <= 4 ? 1 : 2
        var best: (key: String, distance: Int)? = nil
        for candidate in known {
            let distance = editDistance(Array(lowered), Array(candidate.lowercased()))
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.key
    }

    /// Levenshtein distance, with adjacent transpositions counting as one edit.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
