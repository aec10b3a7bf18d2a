extension IndexedBody {
    /// A captured value as a crawl reads it: pointers to next-page URLs and item counts.
    public enum CapturedValue: Sendable, Equatable {
        /// The body has nothing at the pointer.
        case absent
        case null
        /// A string, unescaped.
        case string(String)
        /// An integer written without fraction or exponent that fits in `Int`.
        case integer(Int)
        /// Anything else (object, array, boolean, other numbers, a string with a lone surrogate).
        case other
    }

    /// The value at `pointer`, which must have been one of the indexer's `captures`.
    ///
    /// Captured bytes have been validated by the indexer, so only the shapes need telling apart.
    public func value(at pointer: JSONPointer) -> CapturedValue {
        guard let raw = captures[pointer], let first = raw.first else { return .absent }
        switch first {
        case UInt8(ascii: "n"):
            return .null
        case UInt8(ascii: "\""):
            guard raw.count >= 2,
                let decoded = raw.withUnsafeBufferPointer({
                    ListIndexer.decodeString(UnsafeBufferPointer(rebasing: $0[1..<($0.count - 1)]))
                })
            else { return .other }
            return .string(String(decoding: decoded, as: UTF8.self))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return Self.integer(raw).map(CapturedValue.integer) ?? .other
        default:
            return .other
        }
    }

    private static func integer(_ raw: [UInt8]) -> Int? {
        let negative = raw.first == UInt8(ascii: "-")
        let digits = raw.dropFirst(negative ? 1 : 0)
        guard !digits.isEmpty else { return nil }
        // Accumulated on the negative side, which reaches one further: `Int.min` fits.
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.subtractingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            if o1 || o2 { return nil }
            value = sum
        }
        if negative { return value }
        let (positive, overflow) = (0).subtractingReportingOverflow(value)
        return overflow ? nil : positive
    }
}
