/// A JSON number read for comparison by exact decimal value, without converting to `Double`
/// (which merges `9007199254740993` into `9007199254740992`).
///
/// The value is `sign × 0.d₁d₂…dₖ × 10^exponent` with `d₁ ≠ 0` and `dₖ ≠ 0`; the digits stay in the
/// source bytes (`firstDigit...lastDigit`, skipping the decimal point), so reading allocates nothing.
struct DecimalNumber {
    /// -1, 0 or 1; zero has no digits (so `-0` equals `0`).
    var sign: Int
    var exponent: Int
    var firstDigit: Int
    var lastDigit: Int
    /// Index of the `.` between first and last digit, or -1.
    var point: Int
    /// Index just after the number's last byte.
    var end: Int = 0

    /// Parses the JSON number at `start`; nil if the bytes are not a JSON number up to `end` or a
    /// delimiter.
    init?(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
        var index = start
        var negative = false
        if index < end, bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        let integerStart = index
        while index < end, Self.isDigit(bytes[index]) { index += 1 }
        let integerEnd = index
        guard integerEnd > integerStart else { return nil }
        // JSON has no leading zeros: `01` is a string's text in a filter (docs/API.md, "Requests"), and never
        // an element's value (the indexer refuses it).
        guard integerEnd - integerStart == 1 || bytes[integerStart] != UInt8(ascii: "0") else { return nil }
        var fractionStart = index
        var fractionEnd = index
        point = -1
        if index < end, bytes[index] == UInt8(ascii: ".") {
            point = index
            index += 1
            fractionStart = index
            while index < end, Self.isDigit(bytes[index]) { index += 1 }
            fractionEnd = index
            guard fractionEnd > fractionStart else { return nil }
        }
        var exponentValue = 0
        if index < end, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < end, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            let digitsStart = index
            while index < end, Self.isDigit(bytes[index]) {
                // Saturate: beyond this every comparison is decided by the exponent anyway.
                if exponentValue < 1_000_000_000_000 { exponentValue = exponentValue * 10 + Int(bytes[index] - 0x30) }
                index += 1
            }
            guard index > digitsStart else { return nil }
            if exponentNegative { exponentValue = -exponentValue }
        }
        // First significant digit.
        var first = -1
        var leadingPosition = 0  // position of `first` counted as a power of ten
        for i in integerStart..<integerEnd where bytes[i] != 0x30 {
            first = i
            leadingPosition = integerEnd - i
            break
        }
        if first < 0 {
            for i in fractionStart..<fractionEnd where bytes[i] != 0x30 {
                first = i
                leadingPosition = -(i - fractionStart)
                break
            }
        }
        self.end = index
        guard first >= 0 else {
            sign = 0
            exponent = 0
            firstDigit = 0
            lastDigit = -1
            return
        }
        var last = -1
        var i = max(integerEnd, fractionEnd) - 1
        while i >= first {
            if i != point, bytes[i] != 0x30 {
                last = i
                break
            }
            i -= 1
        }
        sign = negative ? -1 : 1
        exponent = leadingPosition + exponentValue
        firstDigit = first
        lastDigit = last
        if point < first || point > last { point = -1 }
    }

    static let zero = DecimalNumber(sign: 0, exponent: 0, firstDigit: 0, lastDigit: -1, point: -1)

    private init(sign: Int, exponent: Int, firstDigit: Int, lastDigit: Int, point: Int) {
        self.sign = sign
        self.exponent = exponent
        self.firstDigit = firstDigit
        self.lastDigit = lastDigit
        self.point = point
    }

    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    /// Compares by value: -1, 0 or 1.
    static func compare(
        _ a: DecimalNumber, _ aBytes: UnsafeBufferPointer<UInt8>,
        _ b: DecimalNumber, _ bBytes: UnsafeBufferPointer<UInt8>
    ) -> Int {
        if a.sign != b.sign { return a.sign < b.sign ? -1 : 1 }
        if a.sign == 0 { return 0 }
        let magnitude = compareMagnitude(a, aBytes, b, bBytes)
        return a.sign > 0 ? magnitude : -magnitude
    }

    private static func compareMagnitude(
        _ a: DecimalNumber, _ aBytes: UnsafeBufferPointer<UInt8>,
        _ b: DecimalNumber, _ bBytes: UnsafeBufferPointer<UInt8>
    ) -> Int {
        if a.exponent != b.exponent { return a.exponent < b.exponent ? -1 : 1 }
        var i = a.firstDigit
        var j = b.firstDigit
        while true {
            if i == a.point { i += 1 }
            if j == b.point { j += 1 }
            let aDone = i > a.lastDigit
            let bDone = j > b.lastDigit
            if aDone || bDone { return aDone == bDone ? 0 : (aDone ? -1 : 1) }
            if aBytes[i] != bBytes[j] { return aBytes[i] < bBytes[j] ? -1 : 1 }
            i += 1
            j += 1
        }
    }

    /// Whether `sortPrefix` holds the whole value (at most twelve significant digits, exponent
    /// not clamped): two such numbers with equal prefixes are equal, without comparing digits.
    var prefixIsExact: Bool {
        guard sign != 0 else { return true }
        let digits = lastDigit - firstDigit + 1 - (point >= 0 ? 1 : 0)
        return digits <= 12 && (-32768...32767).contains(exponent)
    }

    /// A 61-bit key that orders like the value (equal keys may still differ in value): zero in the
    /// middle, then a clamped exponent and the first twelve digits; negatives complemented.
    func sortPrefix(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        if sign == 0 { return 1 << 59 }
        let clamped = UInt64(min(max(exponent, -32768), 32767) + 32768)
        var mantissa: UInt64 = 0
        var taken = 0
        var i = firstDigit
        while taken < 12 {
            if i == point { i += 1 }
            let digit: UInt64 = i <= lastDigit ? UInt64(bytes[i] - 0x30) : 0
            mantissa = mantissa * 10 + digit
            taken += 1
            i += 1
        }
        let magnitude = clamped << 43 | mantissa
        if sign > 0 { return 2 << 59 | magnitude }
        return ~magnitude & (1 << 59 - 1)
    }
}
