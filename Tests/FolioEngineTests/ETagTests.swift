import Testing

@testable import FolioEngine

@Suite struct ETagTests {
    static let tag = #"W/"k3J9-0123456789abcdef""#

    @Test(arguments: [
        ("*", true),
        (" * ", true),
        (#"W/"k3J9-0123456789abcdef""#, true),
        (#""k3J9-0123456789abcdef""#, true),
        (#""other", W/"k3J9-0123456789abcdef""#, true),
        (#"W/"a,b",W/"k3J9-0123456789abcdef""#, true),
        (#"  "x" ,  "k3J9-0123456789abcdef"  "#, true),
        ("k3J9-0123456789abcdef", true),
        (#""k3J9-0123456789abcdee""#, false),
        (#"W/"k3J9""#, false),
        (#""a,k3J9-0123456789abcdef""#, false),
        ("", false),
        (#"W/"other", "x""#, false),
        (#""*""#, false),
    ])
    func ifNoneMatch(_ example: (header: String, matches: Bool)) {
        #expect(ETag.matches(ifNoneMatch: example.header, etag: Self.tag) == example.matches)
        // Our own tag written strong still compares weakly.
        #expect(ETag.matches(ifNoneMatch: example.header, etag: #""k3J9-0123456789abcdef""#) == example.matches)
    }

    @Test func makeIsWeakStableAndSensitiveToEveryInput() {
        let base = ETag.make(snapshot: "tok", query: "a=1", representation: "envelope")
        #expect(base == ETag.make(snapshot: "tok", query: "a=1", representation: "envelope"))
        #expect(base.hasPrefix(#"W/"tok-"#))
        #expect(base.hasSuffix("\""))
        let hex = base.dropFirst(#"W/"tok-"#.count).dropLast()
        #expect(hex.count == 16 && hex.allSatisfy(\.isHexDigit))
        let variants = [
            ETag.make(snapshot: "tok2", query: "a=1", representation: "envelope"),
            ETag.make(snapshot: "tok", query: "a=2", representation: "envelope"),
            ETag.make(snapshot: "tok", query: "a=1", representation: "bare"),
            ETag.make(snapshot: "tok", query: "a=1", representation: "metadata"),
            ETag.make(snapshot: "tok", query: "a=1", representation: "partial"),
            ETag.make(snapshot: "tok", query: "a=1e", representation: "nvelope"),
        ]
        #expect(Set(variants + [base]).count == variants.count + 1)
        #expect(ETag.matches(ifNoneMatch: base, etag: base))
    }

    /// FNV-1a 64 reference vectors (from the algorithm's published test values), so the hash is
    /// the same function on every replica and platform.
    @Test func fnvMatchesReferenceVectors() {
        #expect(fnv("") == 0xcbf2_9ce4_8422_2325)
        #expect(fnv("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(fnv("foobar") == 0x8594_4171_f739_67e8)
    }

    /// Plain FNV-1a over bytes, written out here as the reference.
    func fnv(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01B3
        }
        return hash
    }

    @Test func makeUsesFNV1aOverTheSeparatedInputs() {
        // Reference: FNV-1a over token, 0xFF, query, 0xFF, representation, 0xFF.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Array("tok".utf8) + [0xFF] + Array("q".utf8) + [0xFF] + Array("bare".utf8) + [0xFF] {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        let padded = String(repeating: "0", count: 16 - hex.count) + hex
        #expect(ETag.make(snapshot: "tok", query: "q", representation: "bare") == "W/\"tok-\(padded)\"")
    }
}
