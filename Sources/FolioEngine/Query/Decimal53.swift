/// Non-negative decimal numbers as Folio accepts them in parameters and `Range` (docs/API.md,
/// "Requests").
enum Decimal53 {
    /// 2^53: the largest number accepted (JavaScript clients cannot represent more exactly).
    static let limit = 9_007_199_254_740_992

    /// Digits only (no sign, no spaces, not empty) and at most 2^53; otherwise nil.
    static func parse(_ text: some StringProtocol) -> Int? {
        var value = 0
        var sawDigit = false
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            // Checked every digit, so the multiplication above never overflows.
            guard value <= limit else { return nil }
            sawDigit = true
        }
        return sawDigit ? value : nil
    }
}
