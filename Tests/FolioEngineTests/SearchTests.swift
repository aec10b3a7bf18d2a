import Foundation
import Testing

@testable import FolioEngine

/// `?q=` (docs/API.md, "Requests") on random lists against the folding reference of the sorting tests.
@Suite struct SearchTests {
    /// Whether `text`'s folded characters contain `query`'s (the reference's own folding),
    /// character by character: grapheme clusters, not scalars.
    static func contains(_ text: String, _ query: String) -> Bool {
        let haystack = Array(SectionsSupport.referenceFold(text)).map { Array($0.unicodeScalars) }
        let needle = Array(SectionsSupport.referenceFold(query)).map { Array($0.unicodeScalars) }
        if needle.isEmpty { return true }
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<$0 + needle.count]) == needle }
    }

    @Test func examplesOfTheSpec() throws {
        let list = SectionsSupport.list([#"{"n":"Ørsted"}"#, #"{"n":"Œuvre"}"#, #"{"n":"Oeuvre"}"#, #"{"n":5}"#])
        let indexes = SnapshotIndexes(list: list, sectionKey: nil)
        let field = try FieldPath("n")
        #expect(indexes.elements(matching: "orst", in: [field], order: nil) == [0])
        #expect(indexes.elements(matching: "OUV", in: [field], order: nil) == [1])
        #expect(indexes.elements(matching: "euv", in: [field], order: nil) == [2])
        #expect(indexes.elements(matching: "5", in: [field], order: nil) == [], "numbers are not searched")
        #expect(indexes.elements(matching: "", in: [field], order: [3, 2, 1, 0]) == [3, 2, 1, 0])
        #expect(indexes.elements(matching: "R", in: [field], order: [3, 2, 1, 0]) == [2, 1, 0])
    }

    /// The column's fast path (values folded into its arena, not into a key each) folds exactly
    /// as `FoldedKey` does, for every ASCII byte (letters, digits, punctuation, controls) and
    /// Latin letters with marks, and leaves anything else to `FoldedKey`, the arena untouched.
    @Test func theLatinFastPathFoldsAsFoldedKey() {
        var rng = SystemRandomNumberGenerator()
        let latin = Array("ÀÉîõüÇñßØœ".unicodeScalars.map(String.init)) + ["e\u{301}", "A\u{308}"]
        var samples = (0..<128).map { [UInt8($0)] }
        for _ in 0..<2_000 {
            let length = Int.random(in: 0...24, using: &rng)
            var text = ""
            for _ in 0..<length {
                text +=
                    Bool.random(using: &rng)
                    ? String(UnicodeScalar(UInt8.random(in: 0...127, using: &rng)))
                    : latin.randomElement(using: &rng)!
            }
            samples.append(Array(text.utf8))
        }
        for sample in samples {
            var arena: [UInt8] = [0x2A]
            let taken = sample.withUnsafeBufferPointer { FoldedKey.appendLatinFold($0, to: &arena) }
            #expect(taken, "\(sample)")
            #expect(Array(arena.dropFirst()) == sample.withUnsafeBufferPointer { FoldedKey(utf8: $0).bytes })
        }
        for other in ["Йогурт", "\u{301}e", "각", "x🇺🇸"] {
            var arena: [UInt8] = [0x2A]
            #expect(
                !Array(other.utf8).withUnsafeBufferPointer { FoldedKey.appendLatinFold($0, to: &arena) }, "\(other)")
            #expect(arena == [0x2A])
        }
    }

    /// Other scripts keep their marks, and a character is compared whole: `И` is not `Й`, `Α`
    /// not `Ά`, a lone mark finds nothing, and a Hangul syllable is not a prefix of a longer one.
    @Test func aCharacterIsComparedWhole() throws {
        let list = SectionsSupport.list([
            #"{"n":"Йогурт"}"#, #"{"n":"άk"}"#, #"{"n":"각"}"#, #"{"n":"Иван"}"#, #"{"n":"🇺🇸🇫🇷"}"#,
            #"{"n":"👨‍👩‍👧"}"#,
        ])
        let indexes = SnapshotIndexes(list: list, sectionKey: nil)
        let field = try FieldPath("n")
        for (query, expected) in [
            ("И", [3]), ("Й", [0]), ("й", [0]), ("\u{306}", []), ("ог", [0]), ("Α", []), ("ά", [1]), ("\u{301}", []),
            ("\u{301}k", []), ("가", []), ("각", [2]), ("ИВ", [3]),
            // Clusters that depend on more than two scalars: a flag after a flag, a family.
            ("🇫🇷", [4]), ("🇸🇫", []), ("👩‍👧", []), ("👨‍👩‍👧", [5]),
        ] as [(String, [UInt32])] {
            #expect(indexes.elements(matching: query, in: [field], order: nil) == expected, "q=\(query)")
        }
    }

    @Test func randomQueriesMatchTheReference() throws {
        var random = SplitMix64(seed: 0x5EA2C4)
        let fields = [try FieldPath("v"), try FieldPath("w")]
        for _ in 0..<40 {
            let count = 1 + Int(random.next() % 120)
            let rows = (0..<count).map { _ in
                (SectionsSupport.randomValue(&random), SectionsSupport.randomValue(&random))
            }
            let list = SectionsSupport.list(
                rows.enumerated().map {
                    SectionsSupport.element(id: $0.offset, fields: [("v", $0.element.0), ("w", $0.element.1)])
                })
            let indexes = SnapshotIndexes(list: list, sectionKey: nil)
            for _ in 0..<10 {
                var query = SectionsSupport.randomName(&random)
                if random.chance(50), !query.isEmpty {
                    // A piece of a name, so that most queries find something.
                    // Sometimes a piece of its decomposed scalars: a letter without its mark.
                    let scalars = Array(
                        (random.chance(30) ? query.decomposedStringWithCanonicalMapping : query).unicodeScalars)
                    let start = random.below(scalars.count)
                    let length = 1 + random.below(scalars.count - start)
                    query = String(String.UnicodeScalarView(scalars[start..<start + length]))
                }
                let searched = random.chance(50) ? fields : [fields[0]]
                let expected = (0..<count).filter { index in
                    let values = searched.count == 2 ? [rows[index].0, rows[index].1] : [rows[index].0]
                    return values.contains { value in
                        if case .string(let text) = value { return Self.contains(text, query) }
                        return false
                    }
                }.map(UInt32.init)
                let got = indexes.elements(matching: query, in: searched, order: nil)
                if SectionsSupport.referenceFold(query).isEmpty {
                    #expect(got == nil, "an empty query keeps the view")
                } else {
                    #expect(got == expected, "q=\(query)")
                    #expect(indexes.elements(matching: query, in: searched, order: nil) == expected, "again, cached")
                }
            }
        }
    }
}

/// Filtered views kept per snapshot (docs/API.md, "Requests": built once, counted, least recently used first).
/// The scan that finds matches with `memchr` over the whole arena marks exactly the elements a
/// plain scan of each element's value marks, on random values (ASCII, Latin folded to ASCII,
/// Cyrillic with and without a combining mark, Hangul, empty and non-string values).
@Suite struct SearchScanTests {
    static func plainMark(_ column: SearchColumn, _ needle: [UInt8]) -> [Int] {
        var marked: [Int] = []
        column.arena.withUnsafeBufferPointer { arena in
            needle.withUnsafeBufferPointer { wanted in
                guard let base = arena.baseAddress, let wanted = wanted.baseAddress else { return }
                for element in 0..<column.offsets.count - 1 {
                    let start = Int(column.offsets[element])
                    let stop = Int(column.offsets[element + 1])
                    var characters: String?
                    var index = start
                    while index + needle.count <= stop {
                        if memoryEqual(wanted, base + index, needle.count),
                            SearchColumn.isBoundary(base, index, in: start..<stop, characters: &characters),
                            SearchColumn.isBoundary(
                                base, index + needle.count, in: start..<stop, characters: &characters)
                        {
                            marked.append(element)
                            break
                        }
                        index += 1
                    }
                }
            }
        }
        return marked
    }

    @Test func theArenaScanMarksWhatAPlainScanMarks() throws {
        var random = SplitMix64(seed: 46)
        let pieces = ["a", "b", "ab", "é", "Ø", "И", "И\u{306}", "Й", "각", "x1", " ", "zoe"]
        var items: [String] = []
        for index in 0..<2_000 {
            if index % 97 == 0 {
                items.append(#"{"n":\#(index)}"#)
                continue
            }
            let value = (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }
            items.append(#"{"n":"\#(value.joined())"}"#)
        }
        let list = SectionsSupport.list(items)
        let column = SearchColumn(list: list, field: try FieldPath("n"))
        for query in ["a", "ab", "b a", "e", "o", "И", "Й", "각", "x1", "ZOE", "1"] {
            let needle = FoldedKey(query).bytes
            var found = BitVector(count: list.count)
            column.mark(containing: needle, in: &found)
            let marked = (0..<list.count).filter { found[$0] }
            #expect(marked == Self.plainMark(column, needle), "\(query)")
        }
    }
}

@Suite struct ViewCacheTests {
    @Test func aViewIsBuiltOnceCountedAndTheLeastRecentlyUsedGoesFirst() {
        let indexes = SnapshotIndexes(list: SectionsSupport.list((0..<10).map { "\($0)" }), sectionKey: nil)
        var builds = 0
        let before = indexes.retainedBytes
        for _ in 0..<3 {
            #expect(
                indexes.view("a") {
                    builds += 1
                    return [3, 1, 2]
                } == [3, 1, 2])
        }
        #expect(builds == 1)
        #expect(indexes.retainedBytes >= before + 12, "4 bytes per element it holds")
        #expect(indexes.view("upstream") { nil } == nil, "the upstream order is not kept")
        for index in 0..<SnapshotIndexes.viewsKept - 1 { _ = indexes.view("v\(index)") { [UInt32(index)] } }
        _ = indexes.view("a") {
            builds += 1
            return []
        }  // a is now the most recently used
        _ = indexes.view("one more") { [0] }  // over the bound: v0 goes, not a
        #expect(builds == 1)
        var rebuilt = false
        _ = indexes.view("v0") {
            rebuilt = true
            return [0]
        }
        #expect(rebuilt, "the least recently used view was dropped")
    }
}
