import FolioEngine

/// Builds lists the way an upstream would send them: an array body with random whitespace, and
/// elements whose bytes vary in ways a re-encoder would change (number forms, escapes, spacing,
/// duplicate keys), so byte-identity checks can fail.
enum ListFactory {
    static func make(count: Int, using rng: inout SplitMix64) -> ItemList {
        var bytes = Array("{\"data\": [".utf8)
        var starts: [UInt32] = []
        var ends: [UInt32] = []
        for index in 0..<count {
            if index > 0 { bytes += Array(",".utf8) }
            bytes += whitespace(&rng)
            starts.append(UInt32(bytes.count))
            bytes += element(index, depth: 0, &rng)
            ends.append(UInt32(bytes.count))
            bytes += whitespace(&rng)
        }
        bytes += Array("]}".utf8)
        return ItemList(bytes: bytes, starts: starts, ends: ends)
    }

    static func whitespace(_ rng: inout SplitMix64) -> [UInt8] {
        let choices = ["", " ", "\n  ", "\t", "\r\n"]
        return Array(choices[Int.random(in: 0..<choices.count, using: &rng)].utf8)
    }

    /// A JSON value; index makes every element distinct.
    static func element(_ index: Int, depth: Int, _ rng: inout SplitMix64) -> [UInt8] {
        let numbers = ["1.0", "1e3", "-0", "0.50", "12345678901234567890123", "2E-7"]
        let strings = ["\"caf\\u00e9\"", "\"a\\/b\"", "\"\\\"q\\\"\"", "\"日本\"", "\"\"", "\"tab\\t\""]
        switch Int.random(in: 0..<(depth > 1 ? 3 : 5), using: &rng) {
        case 0: return Array("\(index)".utf8)
        case 1: return Array("[\(index),\(numbers.randomElement(using: &rng)!)]".utf8)
        case 2: return Array("{\"id\": \(index), \"s\":\(strings.randomElement(using: &rng)!)}".utf8)
        case 3:
            var out = Array("{ \"id\" : \(index) , \"id\":\"dup\", \"nested\" : ".utf8)
            out += element(index, depth: depth + 1, &rng)
            out += Array(" }".utf8)
            return out
        default:
            var out = Array("[ \"#\(index)\",".utf8)
            out += whitespace(&rng)
            out += element(index, depth: depth + 1, &rng)
            out += Array("]".utf8)
            return out
        }
    }
}
