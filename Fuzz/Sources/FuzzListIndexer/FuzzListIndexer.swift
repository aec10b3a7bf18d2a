import FolioEngine
import Foundation

/// libFuzzer entry: the list indexer on arbitrary bytes.
///
/// Checks, beyond "never crashes":
/// - the same bytes fed in small chunks (1–13 bytes, chosen by the input's length) give the same
///   outcome as fed at once: the same elements, byte ranges and token, or an error of the same kind;
/// - differential: a body Foundation's `JSONSerialization` accepts as a top-level array is accepted
///   with the same element count, and a body the indexer accepts is one Foundation accepts, except
///   for the documented differences (see `knownDifference`);
/// - a list fed twice as two bodies (a crawl) has twice the elements.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzListIndexer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let document = Array(UnsafeBufferPointer(start: data, count: size))
    let whole = Outcome(document, chunk: max(1, size))
    let chunked = Outcome(document, chunk: 1 + size % 13)
    guard whole == chunked else {
        fatalError("chunked feeding disagrees: whole \(whole), chunked \(chunked), input \(show(document))")
    }
    _ = Outcome(document, chunk: 7, items: "/items", captures: ["/next", "/total"])

    let foundation = foundationArrayCount(document)
    switch (foundation, whole) {
    case (let count?, .list(let indexed, _, _)):
        guard count == indexed else {
            fatalError("Foundation counts \(count) elements, the indexer \(indexed): \(show(document))")
        }
        let twice = Outcome(document, chunk: 5, bodies: 2)
        guard case .list(let doubled, _, _) = twice, doubled == 2 * indexed else {
            fatalError("two bodies give \(twice), expected \(2 * indexed) elements: \(show(document))")
        }
    case (_?, .failed(let code, let detail)):
        guard knownDifference(document) else {
            fatalError("Foundation accepts, the indexer says \(code): \(detail): \(show(document))")
        }
    case (nil, .list):
        guard foundationAccepts(document) || knownDifference(document) else {
            fatalError("the indexer accepts what Foundation rejects: \(show(document))")
        }
    case (nil, .failed):
        break
    }
    return 0
}

/// What indexing gave, comparable across feeding patterns.
enum Outcome: Equatable, CustomStringConvertible {
    case list(count: Int, ranges: [Range<Int>], token: String)
    case failed(code: String, detail: String)

    init(_ document: [UInt8], chunk: Int, items: String = "", captures: [String] = [], bodies: Int = 1) {
        let limits = IndexLimits(maxBytes: 1 << 22, maxItems: 1 << 20, maxDepth: 10_000)
        var indexer = ListIndexer(
            items: try! JSONPointer(items), limits: limits, sort: [],
            captures: captures.map { try! JSONPointer($0) })
        do throws(FolioError) {
            for _ in 0..<bodies {
                var start = 0
                while start < document.count {
                    let end = min(document.count, start + chunk)
                    try indexer.append(Array(document[start..<end]))
                    start = end
                }
                _ = try indexer.endBody()
            }
            let (list, token) = try indexer.finish()
            self = .list(count: list.count, ranges: (0..<list.count).map(list.range(of:)), token: token)
        } catch {
            self = .failed(code: error.code, detail: error.detail)
        }
    }

    static func == (a: Outcome, b: Outcome) -> Bool {
        switch (a, b) {
        case (.list(let c1, let r1, let t1), .list(let c2, let r2, let t2)): c1 == c2 && r1 == r2 && t1 == t2
        // Error positions may legitimately differ with the chunking; the kind may not.
        case (.failed(let c1, _), .failed(let c2, _)): c1 == c2
        default: false
        }
    }

    var description: String {
        switch self {
        case .list(let count, _, let token): "list of \(count) (\(token))"
        case .failed(let code, let detail): "\(code): \(detail)"
        }
    }
}

func foundationAccepts(_ document: [UInt8]) -> Bool {
    (try? JSONSerialization.jsonObject(with: Data(document), options: [.fragmentsAllowed])) != nil
}

func foundationArrayCount(_ document: [UInt8]) -> Int? {
    ((try? JSONSerialization.jsonObject(with: Data(document), options: [.fragmentsAllowed])) as? [Any])?.count
}

/// Where RFC 8259 and Foundation part ways (as in ListIndexerDifferentialTests):
/// - escapes of lone UTF-16 surrogates, which the grammar allows and Foundation rejects;
/// - a leading NUL, 0xFE, 0xFF or a NUL second byte: Foundation sniffs UTF-16/32 and may decode
///   another encoding; upstream bodies are UTF-8;
/// - numbers beyond `Double`'s range, valid by the grammar, rejected by Foundation;
/// - a trailing comma before `]` or `}`, which Foundation on Linux accepts;
/// - nesting deeper than Foundation's own cap (512).
func knownDifference(_ document: [UInt8]) -> Bool {
    if let first = document.first, first == 0x00 || first == 0xFE || first == 0xFF { return true }
    if document.count > 1, document[1] == 0x00 { return true }
    let text = String(decoding: document, as: UTF8.self)
    let patterns = [#"\\u[dD][89a-fA-F]"#, #"[0-9][eE][+-]?0*[0-9]{3,}"#, #",[ \t\r\n]*[\]}]"#]
    if patterns.contains(where: { text.range(of: $0, options: .regularExpression) != nil }) { return true }
    return document.lazy.filter { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "{") }.count > 500
}

func show(_ bytes: [UInt8]) -> String {
    let text = String(decoding: bytes.prefix(300), as: UTF8.self)
    return "\(bytes.count) bytes \(text.debugDescription)"
}
