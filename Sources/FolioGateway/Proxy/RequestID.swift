import Synchronization

/// The request identifier that follows a request through logs, upstream and response (docs/API.md,
/// "Proxy headers").
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

    /// 128 bits as 32 lowercase hex digits: two SplitMix64 outputs of a process-wide counter
    /// whose start and step are drawn from the system generator once.
    ///
    /// Every request without an acceptable ID needs one, and the system generator costs a
    /// `getrandom` system call per draw (3% of a cached page's CPU). The mix is a bijection, so
    /// IDs never repeat within a process and are as unlikely to collide across processes as
    /// random ones; they identify requests, they are not secrets.
    static func generate() -> String {
        generate(counter.wrappingAdd(1, ordering: .relaxed).oldValue)
    }

    /// The ID of the `count`-th request: the mixes of stream positions `2 count` and
    /// `2 count + 1`, so no two halves of any IDs, its own two included, come from one position.
    static func generate(_ count: UInt64) -> String {
        let position = seeds.0 &+ (count &<< 1) &* seeds.1
        let high = mix(position)
        let low = mix(position &+ seeds.1)
        return String(unsafeUninitializedCapacity: 32) { buffer in
            let digits: StaticString = "0123456789abcdef"
            for index in 0..<16 {
                buffer[index] = digits.utf8Start[Int((high >> UInt64(60 - 4 * index)) & 0xF)]
                buffer[16 + index] = digits.utf8Start[Int((low >> UInt64(60 - 4 * index)) & 0xF)]
            }
            return 32
        }
    }

    private static let counter = Atomic<UInt64>(0)
    /// Odd steps, so `count * step` runs through every value before it repeats.
    private static let seeds: (UInt64, UInt64) = {
        var generator = SystemRandomNumberGenerator()
        return (generator.next() | 1, generator.next() | 1)
    }()

    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
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
