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
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var index = 0
        func hex4(_ at: Int) -> UInt32 {
            var value: UInt32 = 0
            for offset in 0..<4 {
                let byte = raw[at + offset]
                let digit: UInt8 = byte <= UInt8(ascii: "9") ? byte &- 0x30 : (byte | 0x20) &- UInt8(ascii: "a") &+ 10
                value = value << 4 | UInt32(digit)
            }
            return value
        }
        while index < raw.count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                index += 1
                continue
            }
            let escaped = raw[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(index)
                index += 4
                if (0xD800..<0xDC00).contains(scalar) {
                    guard index + 6 <= raw.count, raw[index] == UInt8(ascii: "\\"), raw[index + 1] == UInt8(ascii: "u")
                    else { return nil }
                    let low = hex4(index + 2)
                    guard (0xDC00..<0xE000).contains(low) else { return nil }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                } else if (0xDC00..<0xE000).contains(scalar) {
                    return nil
                }
                out.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(scalar)!)!)
            default: out.append(escaped)  // `"`, `\`, `/`
            }
        }
        return out
    }
}
