import Testing

@testable import FolioEngine

/// `KeyShapes`: the skim recognizes the keys of the element before by their bytes, closing quote
/// and colon included, and by nothing less.
@Suite struct KeyShapesTests {
    static func match(_ shapes: KeyShapes, _ slot: Int, _ text: String) -> Int? {
        let bytes = Array(text.utf8) + [UInt8](repeating: 0x20, count: 16)
        return bytes.withUnsafeBufferPointer { shapes.match(slot, $0.baseAddress!, at: 0) }
    }

    static func keep(_ shapes: KeyShapes, _ slot: Int, _ key: String) {
        let bytes = Array(key.utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 16)
        bytes.withUnsafeBufferPointer { shapes.keep(slot, $0.baseAddress!, start: 0, end: key.utf8.count) }
    }

    @Test func aKeptKeyMatchesItsOwnBytesOnly() {
        KeyShapes.withNone { shapes in
            #expect(Self.match(shapes, 0, "\"id\":1") == nil, "nothing kept yet")
            Self.keep(shapes, 0, "\"id\":")
            #expect(Self.match(shapes, 0, "\"id\":1,") == 5)
            #expect(Self.match(shapes, 0, "\"id\":\"a\"") == 5)
            #expect(Self.match(shapes, 0, "\"ib\":1") == nil)
            #expect(Self.match(shapes, 0, "\"id\" :1") == nil)
            #expect(Self.match(shapes, 0, "\"id\"1") == nil)
            #expect(Self.match(shapes, 0, "\"idx\":1") == nil)
            #expect(Self.match(shapes, 1, "\"id\":1") == nil, "another slot")
            Self.keep(shapes, 0, "\"name\":")
            #expect(Self.match(shapes, 0, "\"id\":1") == nil, "replaced")
            #expect(Self.match(shapes, 0, "\"name\":\"a\"") == 7)
        }
    }

    @Test func keysUpToSixteenBytesAreKeptAndLongerOnesForgotten() {
        KeyShapes.withNone { shapes in
            let sixteen = "\"abcdefghijklm\":"
            #expect(sixteen.utf8.count == KeyShapes.maxLength)
            Self.keep(shapes, 3, sixteen)
            #expect(Self.match(shapes, 3, sixteen + "1") == 16)
            #expect(Self.match(shapes, 3, "\"abcdefghijklM\":1") == nil, "the last byte of the second word")
            let seventeen = "\"abcdefghijklmn\":"
            Self.keep(shapes, 3, seventeen)
            #expect(Self.match(shapes, 3, seventeen + "1") == nil)
            #expect(Self.match(shapes, 3, sixteen + "1") == nil, "forgotten, not kept as before")
            for length in 3...8 {
                let key = "\"" + String(repeating: "k", count: length - 3) + "\":"
                Self.keep(shapes, 1, key)
                #expect(Self.match(shapes, 1, key + "0") == length, "\(key)")
                #expect(Self.match(shapes, 1, "\"" + String(repeating: "k", count: length - 2) + "\":0") == nil)
            }
            #expect(Self.match(shapes, KeyShapes.capacity, "\"id\":1") == nil)
        }
    }
}
