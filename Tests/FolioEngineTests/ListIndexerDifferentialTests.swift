import Foundation
import Testing

@testable import FolioEngine

/// The indexer's notion of valid JSON agrees with Foundation's `JSONSerialization` on random
/// documents and on every kind of single-byte damage to them.
///
/// Known, documented differences are skipped rather than compared:
/// - Escapes of lone UTF-16 surrogates (`"\ud800"`): RFC 8259's grammar allows them (section 8.2
///   calls their behaviour unpredictable) and the indexer passes items through untouched, while
///   Foundation must build a `String` and rejects them.
/// - A leading NUL, 0xFE or 0xFF byte: Foundation sniffs UTF-16/UTF-32 from the first bytes and
///   may decode such a body in another encoding; upstream bodies are UTF-8 (RFC 8259 section 8.1).
/// - Numbers beyond `Double`'s range (`1e400`): valid by the grammar, which the indexer checks
///   (items keep their bytes), while Foundation rejects what it cannot represent.
/// - A trailing comma (`[1,]`): Foundation on Linux accepts it; RFC 8259 does not.
/// - Root values that are not arrays: the indexer stops at once with "no array at items pointer"
///   without judging the rest, so validity is not compared for them.
@Suite struct ListIndexerDifferentialTests {
    static let interestingBytes: [UInt8] =
        Array(#"[]{}:,"\ -+.eE0123456789tfnulrsaxX/"#.utf8)
        + [
            0x00, 0x01, 0x09, 0x0A, 0x0D, 0x1F, 0x7F, 0x80, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xE0, 0xED, 0xEF, 0xF0, 0xF4,
            0xF5, 0xFF,
        ]

    static func foundationAccepts(_ document: [UInt8]) -> Bool {
        (try? JSONSerialization.jsonObject(with: Data(document), options: [.fragmentsAllowed])) != nil
    }

    /// nil when the indexer rejected the body only because its root is not an array.
    static func indexerAccepts(_ document: [UInt8], chunk: Int) -> Bool? {
        do {
            _ = try indexOne(document, chunkLengths: [chunk])
            return true
        } catch {
            return error.detail.hasPrefix("no array at items pointer") ? nil : false
        }
    }

    static func hasKnownDifference(_ document: [UInt8]) -> Bool {
        if let first = document.first, first == 0x00 || first == 0xFE || first == 0xFF { return true }
        if document.count > 1, document[1] == 0x00 { return true }
        let text = String(decoding: document, as: UTF8.self)
        let patterns = [#"\\u[dD][89a-fA-F]"#, #"[0-9][eE][+-]?0*[0-9]{3,}"#, #",[ \t\r\n]*[\]}]"#]
        return patterns.contains { text.range(of: $0, options: .regularExpression) != nil }
    }

    @Test func validDocumentsAreAcceptedByBoth() {
        for seed in UInt64(5000)..<UInt64(5200) {
            var gen = RandomJSON(seed: seed)
            let document = gen.body(gen.array(of: gen.elements(gen.rng.below(12))))
            #expect(Self.foundationAccepts(document), "seed \(seed): \(show(document))")
            #expect(
                Self.indexerAccepts(document, chunk: 1 + gen.rng.below(9)) == true, "seed \(seed): \(show(document))")
        }
    }

    @Test func singleByteMutationsAgree() {
        var compared = 0
        for seed in UInt64(6000)..<UInt64(6300) {
            var gen = RandomJSON(seed: seed)
            let original = gen.body(gen.array(of: gen.elements(1 + gen.rng.below(6))))
            for _ in 0..<40 {
                var document = original
                let position = gen.rng.below(document.count)
                switch gen.rng.below(3) {
                case 0: document[position] = gen.rng.pick(Self.interestingBytes)
                case 1: document.insert(gen.rng.pick(Self.interestingBytes), at: position)
                default: document.remove(at: position)
                }
                if Self.hasKnownDifference(document) { continue }
                guard let ours = Self.indexerAccepts(document, chunk: 1 + gen.rng.below(7)) else { continue }
                compared += 1
                #expect(
                    ours == Self.foundationAccepts(document),
                    "seed \(seed), position \(position): \(show(document))")
            }
        }
        #expect(compared > 5000)
    }
}
