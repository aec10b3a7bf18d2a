/// The request identifier that follows a request through logs, upstream and response (SPEC 6).
public enum RequestID {
    /// The client's `X-Request-ID` when it matches `[A-Za-z0-9._-]{1,128}`, else a new random
    /// one, so a client can correlate but cannot inject into logs or upstream headers.
    public static func accept(_ value: String?) -> String {
        if let value, isAcceptable(value) { return value }
        return generate()
    }

    static func isAcceptable(_ value: String) -> Bool {
        (1...128).contains(value.utf8.count) && value.utf8.allSatisfy(isAllowed)
    }

    /// 128 random bits as 32 lowercase hex digits.
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bits = (generator.next() as UInt64, generator.next() as UInt64)
        return hex(bits.0) + hex(bits.1)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.utf8.count) + digits
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }
}
