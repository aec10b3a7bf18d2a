import Testing

@testable import FolioEngine

/// Reading captured values the way a crawl does (next URLs, totals).
@Suite struct IndexedBodyCapturesTests {
    private func value(_ member: String) throws -> IndexedBody.CapturedValue {
        let pointer = try JSONPointer("/v")
        var indexer = ListIndexer(
            items: try JSONPointer("/items"), limits: IndexLimits(), sort: [], captures: [pointer])
        try indexer.append(Array(#"{"items":[],\#(member)}"#.utf8))
        return try indexer.endBody().value(at: pointer)
    }

    @Test func stringsAreUnescaped() throws {
        #expect(
            try value(#""v":"http:\/\/x.test\/p?a=1&b=\u00e9\ud83d\ude00\"q\"""#)
                == .string("http://x.test/p?a=1&b=é😀\"q\""))
        #expect(try value(#""v":"""#) == .string(""))
        #expect(try value(#""v":"\ud800""#) == .other)
    }

    @Test func integersAndOtherNumbers() throws {
        #expect(try value(#""v":1337"#) == .integer(1337))
        #expect(try value(#""v":0"#) == .integer(0))
        #expect(try value(#""v":-5"#) == .integer(-5))
        #expect(try value(#""v":1.0"#) == .other)
        #expect(try value(#""v":1e3"#) == .other)
        #expect(try value(#""v":99999999999999999999"#) == .other)
    }

    /// `Int`'s whole range, both ends included; one beyond either end is not an integer.
    @Test func integersAtTheEdgesOfInt() throws {
        #expect(try value(#""v":\#(Int.max)"#) == .integer(.max))
        #expect(try value(#""v":\#(Int.min)"#) == .integer(.min))
        #expect(try value(#""v":9223372036854775808"#) == .other)
        #expect(try value(#""v":-9223372036854775809"#) == .other)
        #expect(try value(#""v":-0"#) == .integer(0))
    }

    @Test func nullAbsentAndOtherValues() throws {
        #expect(try value(#""v":null"#) == .null)
        #expect(try value(#""w":1"#) == .absent)
        #expect(try value(#""v":true"#) == .other)
        #expect(try value(#""v":{"a":1}"#) == .other)
        #expect(try value(#""v":[1]"#) == .other)
    }
}
