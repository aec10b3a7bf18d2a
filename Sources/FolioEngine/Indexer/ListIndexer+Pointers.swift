/// Resolution of the `items` and capture pointers while the document streams past.
///
/// A pointer descends one level each time the value at its next token starts; it only ever
/// watches the one container at `level`, so with duplicate keys the first occurrence wins and
/// values elsewhere cost a single flag test (`topRelevant`).
struct PointerTrack: Sendable {
    enum Status: Sendable { case pending, open, resolved, missing }

    let pointer: JSONPointer
    /// Each token's UTF-8, compared with decoded keys.
    let keys: [[UInt8]]
    /// Each token as an array index, or -1.
    let indices: [Int]
    var status = Status.pending
    /// Depth of the container whose children are compared with `keys[level - 1]`; 0: the root.
    var level = 0
    var keyMatched = false
    var nextIndex = 0
    var valueStart = 0
    var valueEnd = 0
    /// Depth of the target value's parent while the target is open.
    var openDepth = 0
    var missingDetail = "member missing"

    init(_ pointer: JSONPointer) {
        self.pointer = pointer
        keys = pointer.tokens.map { Array($0.utf8) }
        indices = pointer.tokens.map { JSONPointer.arrayIndex($0) ?? -1 }
    }

    mutating func reset() {
        status = .pending
        level = 0
        keyMatched = false
        nextIndex = 0
        missingDetail = "member missing"
    }

    /// The pointer's first `count` tokens, for messages.
    func prefix(_ count: Int) -> String {
        count == 0 ? "root" : "'\(JSONPointer(tokens: Array(pointer.tokens.prefix(count))))'"
    }
}

extension ListIndexer {
    /// JSON value kinds, for pointer targets and their messages.
    enum ValueKind: UInt8 {
        case object, array, string, number, boolean, null

        var name: String {
            switch self {
            case .object: "object"
            case .array: "array"
            case .string: "string"
            case .number: "number"
            case .boolean: "boolean"
            case .null: "null"
            }
        }
    }

    /// A value of `kind` starts at store index `at` inside a watched container (or at the root).
    mutating func matchPointers(_ kind: ValueKind, at start: Int) throws(FolioError) {
        for index in pointers.indices {
            guard pointers[index].status == .pending, pointers[index].level == depth else { continue }
            let matched: Bool
            if depth == 0 {
                matched = true
            } else if topIsObject {
                matched = pointers[index].keyMatched
                pointers[index].keyMatched = false
            } else {
                matched = pointers[index].nextIndex == pointers[index].indices[depth - 1]
                pointers[index].nextIndex += 1
            }
            guard matched else { continue }
            if depth == pointers[index].keys.count {
                if index == 0 {
                    guard kind == .array else {
                        throw FolioError.badUpstreamBody(
                            "no array at items pointer '\(pointers[0].pointer)': found \(kind.name)")
                    }
                    itemsDepth = depth + 1
                    pointers[0].status = .resolved
                } else {
                    pointers[index].status = .open
                    pointers[index].valueStart = start
                    pointers[index].openDepth = depth
                    openCaptures += 1
                }
            } else if kind == .object || kind == .array {
                pointers[index].level = depth + 1
                pointers[index].nextIndex = 0
                pointers[index].keyMatched = false
                pendingRelevant = true
            } else {
                pointers[index].status = .missing
                pointers[index].missingDetail = "found \(kind.name) at \(pointers[index].prefix(depth))"
            }
        }
    }

    /// The key `base[from..<to]` (raw, between its quotes) of a watched object was read.
    mutating func matchKey(_ base: UnsafePointer<UInt8>, from: Int, to: Int) {
        for index in pointers.indices where pointers[index].status == .pending && pointers[index].level == depth {
            pointers[index].keyMatched = Self.key(base, from: from, to: to, equals: pointers[index].keys[depth - 1])
        }
    }

    /// The watched container at `depth` closes: pointers still looking inside it found nothing.
    mutating func pointersLeave() {
        for index in pointers.indices where pointers[index].status == .pending && pointers[index].level == depth {
            pointers[index].status = .missing
            pointers[index].missingDetail = topIsObject ? "member missing" : "element missing"
        }
    }

    /// A value ended at store index `end` with its parent at `depth`.
    mutating func closeCaptures(at end: Int) {
        for index in pointers.indices.dropFirst()
        where pointers[index].status == .open && pointers[index].openDepth == depth {
            pointers[index].status = .resolved
            pointers[index].valueEnd = end
            openCaptures -= 1
        }
    }

    /// Compares a raw (already validated) JSON string body with decoded UTF-8 text.
    static func key(_ base: UnsafePointer<UInt8>, from: Int, to: Int, equals wanted: [UInt8]) -> Bool {
        let raw = UnsafeBufferPointer(start: base + from, count: to - from)
        guard raw.contains(UInt8(ascii: "\\")) else { return raw.elementsEqual(wanted) }
        guard let decoded = decodeString(raw) else { return false }
        return decoded == wanted
    }

    /// Decodes the escapes of a validated JSON string body to UTF-8; nil for a lone surrogate,
    /// which no pointer token (a Swift `String`) can equal.
    static func decodeString(_ raw: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        JSONScan.decode(raw, 0..<raw.count, loneSurrogates: .reject)
    }
}
