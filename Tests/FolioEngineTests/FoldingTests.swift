import Foundation
import Testing

@testable import FolioEngine

@Suite struct FoldingTests {
    @Test(arguments: [
        ("Æ", "A"), ("æ", "A"), ("Œ", "O"), ("œ", "O"), ("Ø", "O"), ("ø", "O"), ("Ł", "L"), ("ł", "L"),
        ("Đ", "D"), ("đ", "D"), ("Ð", "D"), ("ð", "D"), ("Þ", "T"), ("þ", "T"), ("ß", "S"), ("ı", "I"),
        ("ŋ", "N"), ("Ŋ", "N"), ("ſ", "S"), ("ĸ", "K"),
    ])
    func specTableMapsEachLetter(letter: String, expected: String) {
        #expect(Folding.fold(letter) == expected)
        #expect(Folding.title(ofKey: letter + "x") == expected)
    }

    @Test func marksAreDroppedFromLatinLettersAndCaseIsUpper() {
        #expect(Folding.fold("é") == "E")
        #expect(Folding.fold("e\u{301}") == "E")
        #expect(Folding.fold("Ñandú") == "NANDU")
        #expect(Folding.fold("straße") == "STRASE")
        #expect(Folding.fold("abc xyz") == "ABC XYZ")
        #expect(Folding.fold("Ærøskøbing") == "AROSKOBING")
        #expect(Folding.fold("İstanbul") == "ISTANBUL")
    }

    @Test func otherScriptsAreUppercasedAndKeepTheirMarks() {
        #expect(Folding.fold("йога") == "ЙОГА")
        #expect(Folding.fold("й").unicodeScalars.map(\.value) == [0x418, 0x306])
        #expect(Folding.title(ofKey: "йога") == "Й")
        #expect(Folding.title(ofKey: "йога").unicodeScalars.map(\.value) == [0x419])
        #expect(Folding.title(ofKey: "иван") == "И")
        #expect(Folding.title(ofKey: "ωmega") == "Ω")
        #expect(Folding.title(ofKey: "άλφα") == "Ά")
        #expect(Folding.title(ofKey: "日本") == "日")
        #expect(Folding.title(ofKey: "한국") == "한")
    }

    @Test func latinLettersWithoutABaseFoldToHash() {
        #expect(Folding.fold("ǝx") == "#X")
        #expect(Folding.title(ofKey: "ǝx") == "#")
        #expect(Folding.title(ofKey: "ɐb") == "#")
        #expect(Folding.title(ofKey: "Ａbc") == "#")
        #expect(Folding.title(ofKey: "Ĳssel") == "#")
    }

    @Test(arguments: ["42nd", "_x", "😀", "😀smile", " space", "#tag", "", "1", "-a", "\u{301}a"])
    func keysNotStartingWithALetterAreUnderHash(key: String) {
        #expect(Folding.title(ofKey: key) == "#")
    }

    @Test func lettersFoldToTheirUppercaseTitle() {
        for scalar in UInt8(ascii: "a")...UInt8(ascii: "z") {
            let lower = String(UnicodeScalar(scalar))
            #expect(Folding.title(ofKey: lower + "rest") == lower.uppercased())
            #expect(Folding.title(ofKey: lower.uppercased()) == lower.uppercased())
        }
    }

    @Test func beginsWithValuesFoldToOneTitle() {
        #expect(Folding.title(forBeginsWith: "é") == "E")
        #expect(Folding.title(forBeginsWith: "E") == "E")
        #expect(Folding.title(forBeginsWith: "e\u{301}") == "E")
        #expect(Folding.title(forBeginsWith: "ß") == "S")
        #expect(Folding.title(forBeginsWith: "Ø") == "O")
        #expect(Folding.title(forBeginsWith: "й") == "Й")
        #expect(Folding.title(forBeginsWith: "1") == "#")
        #expect(Folding.title(forBeginsWith: "#") == "#")
        #expect(Folding.title(forBeginsWith: "😀") == "#")
        #expect(Folding.title(forBeginsWith: "") == nil)
        #expect(Folding.title(forBeginsWith: "Ab") == nil)
        #expect(Folding.title(forBeginsWith: "12") == nil)
    }

    @Test func titleOrderIsLettersThenOtherScriptsThenHash() {
        let shuffled = ["#", "日", "B", "Й", "A", "И", "Z", "Ω", "한"]
        let sorted = shuffled.sorted(by: Folding.titleOrder)
        // Decomposed code points, as keys sort: 한 is U+1112 U+1161 U+11AB, before 日 (U+65E5).
        #expect(sorted == ["A", "B", "Z", "Ω", "И", "Й", "한", "日", "#"])
        #expect(!Folding.titleOrder("#", "A"))
        #expect(!Folding.titleOrder("A", "A"))
    }

    /// Every pool name with random suffixes folds and titles like the literal reference.
    @Test func foldingMatchesTheReference() {
        let seed: UInt64 = 0x5EC7_1045
        var random = SplitMix64(seed: seed)
        var keys = SectionsSupport.namePool
        for _ in 0..<500 { keys.append(SectionsSupport.randomName(&random)) }
        for key in keys {
            #expect(
                Folding.fold(key).unicodeScalars.elementsEqual(SectionsSupport.referenceFold(key).unicodeScalars),
                "seed \(seed): fold(\(key.debugDescription))")
            #expect(
                Folding.title(ofKey: key) == SectionsSupport.referenceTitle(key),
                "seed \(seed): title(\(key.debugDescription))")
        }
    }

    @Test func everyPrecomposedLatinLetterMatchesTheReference() {
        let ranges: [ClosedRange<UInt32>] = [0xC0...0x24F, 0x1E00...0x1EFF]
        for range in ranges {
            for value in range {
                guard let scalar = Unicode.Scalar(value), SectionsSupport.isLatin(scalar) else { continue }
                let key = String(scalar) + "a"
                #expect(
                    Folding.fold(key).unicodeScalars.elementsEqual(SectionsSupport.referenceFold(key).unicodeScalars),
                    "U+\(String(value, radix: 16)) \(key)")
            }
        }
    }
}
