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

    static func outcome(_ document: [UInt8], chunkLengths: [Int], items: JSONPointer = .root) -> Outcome {
        let captures = [try! JSONPointer("/next"), try! JSONPointer("/0/id")]
        do {
            let (list, token, body) = try indexOne(
                document, items: items, captures: captures,
                limits: IndexLimits(maxBytes: 1 << 24, maxItems: 1 << 20, maxDepth: 64), chunkLengths: chunkLengths)
            return .list((0..<list.count).map(list.range(of:)), token, body.captures)
        } catch {
            return .failed(error.code, error.detail)
        }
    }

    static func agree(_ document: [UInt8], _ rng: inout SplitMix64, items: JSONPointer = .root, _ comment: String) {
        let whole = outcome(document, chunkLengths: [Int.max], items: items)
        let bytewise = outcome(document, chunkLengths: [1], items: items)
        #expect(whole == bytewise, "\(comment): \(show(document))")
        let random = outcome(
            document, chunkLengths: randomChunkLengths(&rng, documentLength: document.count), items: items)
        #expect(whole == random, "\(comment): \(show(document))")
    }

    /// Elements shaped like the benchmark list's: short keys, names (some non-ASCII, some with
    /// an escaped quote), plain and odd numbers, a small array.
    static func denseElement(_ index: Int, _ rng: inout SplitMix64) -> [UInt8] {
        let names = ["Rusaloø Linhalfel", "Ann", "Oscar \\\"O\\\" Olsen", "Ørsted", "東京", "x", "Œuvre long name here"]
        let numbers = ["150.74", "0", "-3", "12345678901234567", "1e3", "2.5E-3", "0.5", "-0.0", "99.", "01", "1.2.3"]
        let price = rng.pick(numbers)
        let tags = rng.chance(20) ? "[]" : "[\"eco\",\"red\"]"
        return Array(
            "{\"id\":\(index),\"name\":\"\(rng.pick(names))\",\"category\":\"garden\",\"price\":\(price),\"tags\":\(tags)}"
                .utf8)
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
            for _ in 0..<8 {
                var damaged = document
                let position = rng.below(damaged.count)
                switch rng.below(3) {
                case 0: damaged[position] = rng.pick(ListIndexerDifferentialTests.interestingBytes)
                case 1: damaged.insert(rng.pick(ListIndexerDifferentialTests.interestingBytes), at: position)
                default: damaged.remove(at: position)
                }
                Self.agree(damaged, &rng, "round \(round), damaged at \(position)")
            }
        }
    }

    @Test func randomDocumentsAgree() {
        var rng = SplitMix64(seed: 2016)
        for seed in UInt64(7000)..<UInt64(7300) {
            var gen = RandomJSON(seed: seed)
            gen.whitespacePercent = gen.rng.pick([0, 10, 60])
            let document = gen.body(gen.array(of: gen.elements(1 + gen.rng.below(8))))
            Self.agree(document, &rng, "seed \(seed)")
            for _ in 0..<10 {
                var damaged = document
                let position = rng.below(damaged.count)
                switch rng.below(3) {
                case 0: damaged[position] = rng.pick(ListIndexerDifferentialTests.interestingBytes)
                case 1: damaged.insert(rng.pick(ListIndexerDifferentialTests.interestingBytes), at: position)
                default: damaged.remove(at: position)
                }
                Self.agree(damaged, &rng, "seed \(seed), damaged at \(position)")
            }
        }
    }

    /// Numbers and strings ending at every offset of a 16-byte block.
    @Test func tokensAtEveryOffset() {
        var rng = SplitMix64(seed: 3016)
        let values = [
            "1.5", "-0", "10", "0.25", "1e2", "\"ab\\\"c\"", "\"é\"", "\"\\u00e9x\"", "\"a\\nb\"", "\"\u{1}\"",
        ]
        for value in values {
            for padding in 0..<40 {
                let document = Array(("[" + String(repeating: " ", count: padding) + value + "," + value + "]").utf8)
                Self.agree(document, &rng, "\(value) after \(padding) spaces")
            }
        }
    }
}
