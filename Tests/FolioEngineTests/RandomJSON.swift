@testable import FolioEngine

/// Generates random valid JSON with known element bytes: every value kind, nesting, escapes,
/// multi-byte UTF-8, awkward numbers and random whitespace between tokens.
struct RandomJSON {
    var rng: SplitMix64
    /// Percent chance of whitespace between two tokens.
    var whitespacePercent = 30

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    static let numbers = [
        "0", "-0", "1", "-1", "1.50", "1e3", "1E+2", "2.5e-3", "-0.0", "12345678901234567890",
        "3.14159", "-12.5E10", "100", "9007199254740993", "0.000001", "7e0",
    ]
    static let escapes = [
        #"\""#, #"\\"#, #"\/"#, #"\b"#, #"\f"#, #"\n"#, #"\r"#, #"\t"#, #"\u00e9"#, #"\u00E9"#,
        #"\ud83d\ude00"#, #"\u0000"#, #"\u001f"#, #"\u4e2d"#,
    ]
    static let unicode = ["é", "ß", "中文", "😀", "Ω", "ü", "\u{7F}", "\u{10FFFF}", "\u{FFFD}", "ア"]

    mutating func whitespace() -> [UInt8] {
        guard rng.chance(whitespacePercent) else { return [] }
        return (0..<(1 + rng.below(3))).map { _ in rng.pick([0x20, 0x0A, 0x0D, 0x09]) }
    }

    mutating func string() -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for _ in 0..<rng.below(6) {
            switch rng.below(4) {
            case 0: out += Array(rng.pick(Self.escapes).utf8)
            case 1: out += Array(rng.pick(Self.unicode).utf8)
            default:
                // Runs long enough to cross 8-byte words.
                for _ in 0..<rng.below(24) {
                    var byte = UInt8(0x20 + rng.below(0x5F))
                    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { byte = UInt8(ascii: "x") }
                    out.append(byte)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
        return out
    }

    mutating func number() -> [UInt8] {
        if rng.chance(50) { return Array(rng.pick(Self.numbers).utf8) }
        return Array(String(Int64(bitPattern: rng.next()) >> rng.below(64)).utf8)
    }

    /// A random value, at most `depth` levels of containers deep.
    mutating func value(depth: Int) -> [UInt8] {
        let kind = depth > 0 ? rng.below(8) : 2 + rng.below(6)
        switch kind {
        case 0: return object(count: rng.below(4), depth: depth - 1)
        case 1: return array(rng.below(4), depth: depth - 1)
        case 2, 3: return string()
        case 4, 5: return number()
        case 6: return Array(rng.pick(["true", "false"]).utf8)
        default: return Array("null".utf8)
        }
    }

    mutating func object(count: Int, depth: Int) -> [UInt8] {
        members((0..<count).map { _ in (string(), value(depth: depth)) })
    }

    mutating func array(_ count: Int, depth: Int) -> [UInt8] {
        array(of: (0..<count).map { _ in value(depth: depth) })
    }

    /// `[e1,e2,…]` with random whitespace around every token; elements are used as given.
    mutating func array(of elements: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (index, element) in elements.enumerated() {
            if index > 0 { out += whitespace() + [UInt8(ascii: ",")] }
            out += whitespace() + element
        }
        return out + whitespace() + [UInt8(ascii: "]")]
    }

    /// `{k1:v1,…}` from raw key and value bytes, with random whitespace.
    mutating func members(_ pairs: [([UInt8], [UInt8])]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (index, pair) in pairs.enumerated() {
            if index > 0 { out += whitespace() + [UInt8(ascii: ",")] }
            out += whitespace() + pair.0 + whitespace() + [UInt8(ascii: ":")] + whitespace() + pair.1
        }
        return out + whitespace() + [UInt8(ascii: "}")]
    }

    mutating func elements(_ count: Int) -> [[UInt8]] {
        (0..<count).map { _ in value(depth: 3) }
    }

    /// A whole body: leading/trailing whitespace around `root`.
    mutating func body(_ root: [UInt8]) -> [UInt8] { whitespace() + root + whitespace() }
}

/// Feeds `document` split at the given chunk lengths (cycled) into `indexer`.
func feed(_ indexer: inout ListIndexer, _ document: [UInt8], chunkLengths: [Int]) throws(FolioError) {
    var offset = 0
    var next = 0
    while offset < document.count {
        let length = min(max(1, chunkLengths[next % chunkLengths.count]), document.count - offset)
        try indexer.append(Array(document[offset..<offset + length]))
        offset += length
        next += 1
    }
}

/// Stages and scans `chunk`, the earlier chunks' input hashed in the background meanwhile.
func appendOverlapped(_ indexer: inout ListIndexer, _ chunk: [UInt8]) throws(FolioError) {
    try chunk.withUnsafeReadableBytes { (bytes) throws(FolioError) in try indexer.stage(bytes) }
    try indexer.scanStaged(background: true)
}

/// `feed` with each chunk's earlier input hashed in the background (`appendOverlapped`), the
/// pass settled before the next chunk and at the end.
func feedOverlapped(_ indexer: inout ListIndexer, _ document: [UInt8], chunkLengths: [Int]) async throws {
    var offset = 0
    var next = 0
    while offset < document.count {
        let length = min(max(1, chunkLengths[next % chunkLengths.count]), document.count - offset)
        await indexer.settle()
        try appendOverlapped(&indexer, Array(document[offset..<offset + length]))
        offset += length
        next += 1
    }
    await indexer.settle()
}

/// `feed` as a fill feeds a download: through an `IndexerBox`, in batches scanned on a fill
/// worker while the next is gathered, drained at the end.
func feedBatched(_ box: IndexerBox, _ document: [UInt8], chunkLengths: [Int]) async throws(FolioError) {
    var offset = 0
    var next = 0
    while offset < document.count {
        let length = min(max(1, chunkLengths[next % chunkLengths.count]), document.count - offset)
        try await box.feed(Array(document[offset..<offset + length]))
        offset += length
        next += 1
    }
    try await box.drain()
}

/// Random chunk lengths for one document, sometimes 1 byte, sometimes large.
func randomChunkLengths(_ rng: inout SplitMix64, documentLength: Int) -> [Int] {
    switch rng.below(4) {
    case 0: return [1]
    case 1: return [max(1, documentLength)]
    default: return (0..<8).map { _ in 1 + rng.below(rng.pick([3, 17, 200, 5000])) }
    }
}

/// Indexes one body and returns the list, the token and the body's report.
func indexOne(
    _ document: [UInt8], items: JSONPointer = .root, sort: [String] = [], captures: [JSONPointer] = [],
    limits: IndexLimits = IndexLimits(), chunkLengths: [Int] = [Int.max]
) throws(FolioError)
    -> (list: ItemList, token: String, body: IndexedBody)
{
    var indexer = ListIndexer(items: items, limits: limits, sort: sort, captures: captures)
    try feed(&indexer, document, chunkLengths: chunkLengths)
    let body = try indexer.endBody()
    let (list, token) = try indexer.finish()
    return (list, token, body)
}

extension ItemList {
    var elements: [[UInt8]] { (0..<count).map(element) }
}

/// Printable form of bytes for failure messages.
func show(_ bytes: [UInt8]) -> String {
    bytes.map { $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16) }.joined()
}
