import Testing

@testable import FolioEngine

/// Targeted behaviours of the indexer: ranges, pointers, captures, storage.
@Suite struct ListIndexerTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func elementRangesExcludeSurroundingWhitespace() throws {
        let document = Self.bytes(" [ 1 ,\n\t\"a b\" , { \"k\" : [ true , null ] }\r\n,-2.5e+3,[],{}] \n")
        let result = try indexOne(document)
        #expect(
            result.list.elements.map { String(decoding: $0, as: UTF8.self) }
                == ["1", "\"a b\"", "{ \"k\" : [ true , null ] }", "-2.5e+3", "[]", "{}"])
        #expect(result.list.bytes == document)
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let document: [UInt8] = [0xEF, 0xBB, 0xBF] + Self.bytes("[1,2]")
        for chunk in [1, 2, 100] {
            let result = try indexOne(document, chunkLengths: [chunk])
            #expect(result.list.elements == [Self.bytes("1"), Self.bytes("2")])
        }
    }

    @Test func topLevelNumberAtTheEndOfTheBodyIsComplete() throws {
        let pointer = try JSONPointer("/n")
        let result = try indexOne(
            Self.bytes(#"{"n":12,"items":[1]}"#), items: JSONPointer("/items"),
            captures: [pointer])
        #expect(result.body.captures[pointer] == Self.bytes("12"))
        let error = #expect(throws: FolioError.self) { try indexOne(Self.bytes("123")) }
        #expect(error?.detail == "no array at items pointer '': found number")
    }

    @Test func keysAreComparedDecoded() throws {
        for spelling in [#""data""#, #""d\u0061ta""#, #""\u0064\u0061\u0074\u0061""#] {
            let result = try indexOne(Self.bytes("{\(spelling):[7]}"), items: JSONPointer("/data"))
            #expect(result.list.elements == [Self.bytes("7")], "\(spelling)")
        }
        let emoji = try indexOne(Self.bytes(#"{"\ud83d\ude00":[1],"😀x":[2]}"#), items: JSONPointer("/😀"))
        #expect(emoji.list.elements == [Self.bytes("1")])
        let empty = try indexOne(Self.bytes(#"{"":[3]}"#), items: JSONPointer("/"))
        #expect(empty.list.elements == [Self.bytes("3")])
        let loneSurrogate = #expect(throws: FolioError.self) {
            try indexOne(Self.bytes(#"{"\ud800":[1]}"#), items: JSONPointer("/\u{FFFD}"))
        }
        #expect(loneSurrogate?.detail.contains("member missing") == true)
    }

    @Test func firstDuplicateKeyWins() throws {
        let result = try indexOne(
            Self.bytes(#"{"data":[1,2],"data":[3],"x":{"data":[4]}}"#), items: JSONPointer("/data"))
        #expect(result.list.elements == [Self.bytes("1"), Self.bytes("2")])
        let duplicateInItem = try indexOne(Self.bytes(#"[{"a":1,"a":2}]"#))
        #expect(duplicateInItem.list.elements == [Self.bytes(#"{"a":1,"a":2}"#)])
    }

    @Test func capturesTakeAnyValueKind() throws {
        let pointers = try ["/next", "/total", "/meta", "/meta/list/1", "/flag", "/absent", "/data/0/id"].map(
            JSONPointer.init)
        let document = Self.bytes(
            #"{"next" : "http:\/\/x/p2", "meta":{"list":[1, [2,3] ]},"data":[{"id":5},{"id":6}],"flag":false,"total": 1337 }"#
        )
        for chunk in [1, 3, 1000] {
            let result = try indexOne(document, items: JSONPointer("/data"), captures: pointers, chunkLengths: [chunk])
            let captures = result.body.captures
            #expect(captures[pointers[0]] == Self.bytes(#""http:\/\/x/p2""#))
            #expect(captures[pointers[1]] == Self.bytes("1337"))
            #expect(captures[pointers[2]] == Self.bytes(#"{"list":[1, [2,3] ]}"#))
            #expect(captures[pointers[3]] == Self.bytes("[2,3]"))
            #expect(captures[pointers[4]] == Self.bytes("false"))
            #expect(captures[pointers[5]] == nil)
            #expect(captures[pointers[6]] == Self.bytes("5"))
            #expect(result.list.count == 2)
        }
        let null = try JSONPointer("/next")
        let last = try indexOne(Self.bytes(#"{"data":[],"next":null}"#), items: JSONPointer("/data"), captures: [null])
        #expect(last.body.captures[null] == Self.bytes("null"))
    }

    @Test func capturesResetBetweenBodies() throws {
        let next = try JSONPointer("/next")
        var indexer = ListIndexer(items: try JSONPointer("/data"), limits: IndexLimits(), sort: [], captures: [next])
        try indexer.append(Self.bytes(#"{"data":[1],"next":"p2"}"#))
        #expect(try indexer.endBody().captures[next] == Self.bytes(#""p2""#))
        try indexer.append(Self.bytes(#"{"data":[2]}"#))
        #expect(try indexer.endBody().captures[next] == nil)
    }

    @Test func emptyListHasTheTokenOfNoElements() throws {
        let result = try indexOne(Self.bytes("[ ]"), sort: ["name"])
        #expect(result.list.count == 0)
        #expect(result.token == SnapshotToken.compute(sort: ["name"], elements: []))
        let untouched = ListIndexer(items: .root, limits: IndexLimits(), sort: [])
        let (list, token) = try untouched.finish()
        #expect(list.count == 0 && token == SnapshotToken.compute(sort: [], elements: []))
    }

    @Test func largeElementsAndLongStrings() throws {
        var gen = RandomJSON(seed: 77)
        let long = Self.bytes("\"" + String(repeating: "abcdefgh", count: 10_000) + "é\"")
        let elements = [long, gen.array(300, depth: 2), Self.bytes("1"), long]
        for chunk in [7, 4096, 1 << 20] {
            let result = try indexOne(gen.array(of: elements), chunkLengths: [chunk])
            #expect(result.list.elements == elements)
            #expect(result.token == SnapshotToken.compute(sort: [], elements: elements))
        }
    }

    /// Large enough for the store to grow several times and to get huge-page advice.
    @Test func multiMegabyteBodies() throws {
        var gen = RandomJSON(seed: 11)
        let elements = (0..<20_000).map { _ in gen.object(count: 6, depth: 1) }
        let document = gen.array(of: elements)
        #expect(document.count > 4 << 20)
        for reserve in [false, true] {
            var indexer = ListIndexer(items: .root, limits: IndexLimits(), sort: [])
            if reserve { indexer.reserve(additionalBytes: document.count) }
            try feed(&indexer, document, chunkLengths: [65536, 1000, 7])
            _ = try indexer.endBody()
            let (list, token) = try indexer.finish()
            #expect(list.bytes == document)
            #expect(list.elements == elements)
            #expect(token == SnapshotToken.compute(sort: [], elements: elements))
            #if os(Linux)
                // Unused capacity is given back in place (`StoreTrimTests`).
                let unused = StoreTrimTests.residentPages(list.bytes, in: list.bytes.count..<list.bytes.capacity)
                #expect(unused.resident == 0)
            #endif
        }
    }

    @Test func finishTrimsSlackCapacity() throws {
        var gen = RandomJSON(seed: 5)
        let document = gen.array(of: gen.elements(2000))
        let result = try indexOne(document, chunkLengths: [999])
        #expect(result.list.bytes.capacity - result.list.bytes.count <= 4096)
        #expect(result.list.starts.capacity - result.list.count <= 256)

        var indexer = ListIndexer(items: .root, limits: IndexLimits(), sort: [])
        indexer.reserve(additionalBytes: document.count)
        try feed(&indexer, document, chunkLengths: [1000])
        _ = try indexer.endBody()
        let (list, _) = try indexer.finish()
        #expect(list.bytes.capacity - list.bytes.count <= 4096)
        #expect(list.bytes == document)
    }
}
