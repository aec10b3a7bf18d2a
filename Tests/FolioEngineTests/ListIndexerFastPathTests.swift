import Foundation
import Testing

@testable import FolioEngine

/// The scanner's block-at-a-time paths need bytes ahead of the cursor, so a body fed one byte
/// at a time never takes them: fed whole, fed byte by byte and fed at random lengths, every body
/// (valid or damaged) must give the same elements, ranges and token, or the same error with the
/// same text and byte offset.
@Suite struct ListIndexerFastPathTests {
    enum Outcome: Equatable {
        case list([Range<Int>], String, [JSONPointer: [UInt8]])
        case failed(String, String)
    }

    static func outcome(
        _ document: [UInt8], chunkLengths: [Int], items: JSONPointer = .root, captures: [JSONPointer] = []
    ) -> Outcome {
        do {
            let (list, token, body) = try indexOne(
                document, items: items, captures: captures,
                limits: IndexLimits(maxBytes: 1 << 24, maxItems: 1 << 20, maxDepth: 64), chunkLengths: chunkLengths)
            return .list((0..<list.count).map(list.range(of:)), token, body.captures)
        } catch {
            return .failed(error.code, error.detail)
        }
    }

    /// Without captures the skim reads the elements; a capture inside them (`/0/id`) turns it
    /// off for the whole array, so the byte-by-byte machine reads everything.
    static let captureSets = [[], [try! JSONPointer("/next"), try! JSONPointer("/0/id")]]

    static func agree(_ document: [UInt8], _ rng: inout SplitMix64, items: JSONPointer = .root, _ comment: String) {
        for captures in captureSets {
            let whole = outcome(document, chunkLengths: [Int.max], items: items, captures: captures)
            let bytewise = outcome(document, chunkLengths: [1], items: items, captures: captures)
            #expect(whole == bytewise, "\(comment), captures \(captures): \(show(document))")
            let random = outcome(
                document, chunkLengths: randomChunkLengths(&rng, documentLength: document.count), items: items,
                captures: captures)
            #expect(whole == random, "\(comment), captures \(captures): \(show(document))")
        }
    }

    /// Elements shaped like the benchmark list's: short keys, names (some non-ASCII, some with
    /// an escaped quote), plain and odd numbers, a small array.
    static func denseElement(_ index: Int, _ rng: inout SplitMix64) -> [UInt8] {
        let names = ["Rusaloø Linhalfel", "Ann", "Oscar \\\"O\\\" Olsen", "Ørsted", "東京", "x", "Œuvre long name here"]
        let numbers = [
            "150.74", "0", "-3", "12345678901234567", "1e3", "2.5E-3", "0.5", "-0.0", "99.", "01", "1.2.3",
            "0.30000000000000004", "-1.2345678901234567e-05", "123456789012345678901234567890123",
        ]
        let price = rng.pick(numbers)
        let tags = rng.chance(20) ? "[]" : "[\"eco\",\"red\"]"
        let head = "{\"id\":\(index),\"name\":\"\(rng.pick(names))\",\"category\":\"garden\","
        return Array((head + "\"price\":\(price),\"tags\":\(tags)}").utf8)
    }

    @Test func denseListsAgree() {
        var rng = SplitMix64(seed: 1916)
        for round in 0..<300 {
            let count = 1 + rng.below(12)
            var elements = (0..<count).map { Self.denseElement($0, &rng) }
            // Valid numbers only in half of the rounds, so most lists are valid.
            if rng.chance(50) {
                elements = elements.map { element in
                    let text = String(decoding: element, as: UTF8.self)
                    for bad in ["99.", "01", "1.2.3"] where text.contains(":\(bad),") {
                        return Array(text.replacingOccurrences(of: ":\(bad),", with: ":1,").utf8)
                    }
                    return element
                }
            }
            let document = Array("[".utf8) + elements.joined(separator: Array(",".utf8)) + Array("]".utf8)
            Self.agree(document, &rng, "round \(round)")
            Self.agreeDamaged(document, copies: 8, &rng, "round \(round)")
        }
    }

    @Test func randomDocumentsAgree() {
        var rng = SplitMix64(seed: 2016)
        for seed in UInt64(7000)..<UInt64(7300) {
            var gen = RandomJSON(seed: seed)
            gen.whitespacePercent = gen.rng.pick([0, 10, 60])
            let document = gen.body(gen.array(of: gen.elements(1 + gen.rng.below(8))))
            Self.agree(document, &rng, "seed \(seed)")
            Self.agreeDamaged(document, copies: 10, &rng, "seed \(seed)")
        }
    }

    /// `agree` on `copies` copies of `document`, each with one byte changed, inserted or removed.
    static func agreeDamaged(_ document: [UInt8], copies: Int, _ rng: inout SplitMix64, _ label: String) {
        for _ in 0..<copies {
            var damaged = document
            let position = rng.below(damaged.count)
            switch rng.below(3) {
            case 0: damaged[position] = rng.pick(ListIndexerDifferentialTests.interestingBytes)
            case 1: damaged.insert(rng.pick(ListIndexerDifferentialTests.interestingBytes), at: position)
            default: damaged.remove(at: position)
            }
            agree(damaged, &rng, "\(label), damaged at \(position)")
        }
    }

    /// Numbers and strings starting at every offset of a 16- or 32-byte step, near the chunk's
    /// end (where the skim must leave them to the byte-by-byte machine) and far from it.
    @Test func tokensAtEveryOffset() {
        var rng = SplitMix64(seed: 3016)
        let values = [
            "1.5", "-0", "10", "0.25", "1e2", "\"ab\\\"c\"", "\"é\"", "\"\\u00e9x\"", "\"a\\nb\"", "\"\u{1}\"",
            "\"" + String(repeating: "long", count: 9) + "\"", "\"" + String(repeating: "ø", count: 20) + "\"",
            "{\"k\":[true,false,null]}", "[{},[]]", "tru", "nul", "fals", "01", "\"\\x\"", "\"\\u12G4\"",
        ]
        for value in values {
            for padding in 0..<40 {
                for tail in ["", String(repeating: " ", count: 70)] {
                    let document = Array(
                        ("[" + String(repeating: " ", count: padding) + value + "," + value + "]" + tail).utf8)
                    Self.agree(document, &rng, "\(value) after \(padding) spaces")
                }
            }
        }
    }

    /// Escapes, multi-byte UTF-8 and control characters on either side of the skim's 64-byte
    /// string windows: a first string loads a window, and the second one's special byte falls
    /// just before, on or after that window's end and the next one's.
    @Test func stringSpecialsAcrossWindows() {
        var rng = SplitMix64(seed: 6416)
        let specials = ["\\\"", "\\\\", "\\u00e9", "\\x", "ø", "東", "\u{1}", "\u{7F}"]
        for special in specials {
            for offset in Array(50..<72) + Array(114..<136) {
                let text = String(repeating: "x", count: offset) + special + "yz"
                // Spaces after the list, so the skim (not the byte-by-byte tail) reads it all.
                let tail = String(repeating: " ", count: ListIndexer.skimMargin)
                let document = Array("[\"a\",\"\(text)\",\"b\",{\"\(text)\":1}]\(tail)".utf8)
                Self.agree(document, &rng, "\(special) at \(offset)")
            }
        }
    }

    /// Elements of one shape, so the skim knows each key from the element before (`KeyShapes`),
    /// with one byte of a later element's key damaged, or a key of another shape: every outcome
    /// as the byte-by-byte machine's.
    @Test func keysOfTheElementBeforeAgreeWhenDamaged() {
        var rng = SplitMix64(seed: 5116)
        let element = #"{"id":1,"name":"a","tags":{"colour":"red"}}"#
        let list = Array(("[" + Array(repeating: element, count: 4).joined(separator: ",") + "]").utf8)
        let tail = [UInt8](repeating: UInt8(ascii: " "), count: ListIndexer.skimMargin)
        // The third element's keys, quotes and colons included.
        let third = 1 + 2 * (element.utf8.count + 1)
        let keyOffsets = Array(1...5) + Array(8...14) + Array(19...25) + Array(27...35)
        for offset in keyOffsets {
            for replacement in ["\u{1}", "\"", "\\", "x", ":", " ", "\u{E9}"] {
                var bytes = list
                bytes.replaceSubrange((third + offset)...(third + offset), with: Array(replacement.utf8))
                Self.agree(bytes + tail, &rng, "key byte \(offset) as \(replacement.debugDescription)")
            }
        }
        let reshaped = "[" + element + "," + #"{"id":2,"nam":"b","tags":{"color":"blue"}}"# + "," + element + "]"
        Self.agree(Array(reshaped.utf8) + tail, &rng, "another shape between")
    }

    /// The skim itself takes the benchmark's elements whole (else the tests above would compare
    /// the byte-by-byte machine with itself) and declines what it leaves to that machine.
    @Test func skimTakesPlainElementsWhole() {
        var rng = SplitMix64(seed: 4016)
        func skim(_ bytes: [UInt8], depthBudget: Int = 8) -> Int? {
            let padded = bytes + [UInt8](repeating: UInt8(ascii: " "), count: ListIndexer.skimMargin + 16)
            var window = StringWindow(before: 0)
            return padded.withUnsafeBufferPointer { bytes in
                KeyShapes.withNone { keys in
                    ListIndexer.skimValue(
                        bytes.baseAddress!, at: 0, before: padded.count - ListIndexer.skimMargin,
                        depthBudget: depthBudget, window: &window, keys: keys)
                }
            }
        }
        for index in 0..<300 {
            let element = Self.denseElement(index, &rng)
            let text = String(decoding: element, as: UTF8.self)
            let declined = ["99.", "01", "1.2.3", "123456789012345678901234567890123"].contains {
                text.contains(":\($0),")
            }
            #expect(skim(element) == (declined ? nil : element.count), "\(text)")
        }
        #expect(skim(Array("[[[1]]]".utf8), depthBudget: 3) == 7)
        #expect(skim(Array("[[[1]]]".utf8), depthBudget: 2) == nil)
        #expect(skim(Array("\"a\\u00e9\\n\"".utf8)) == 11)
        #expect(skim(Array("\"\u{1}\"".utf8)) == nil)
        #expect(skim(Array("[1,]".utf8)) == nil)
        #expect(skim(Array("{\"a\" : [ true , false , null ] }".utf8)) == 32)
    }
}
