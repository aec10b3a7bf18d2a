/// A small test-only scanner that finds the raw byte ranges of JSON values, so tests can compare
/// items byte for byte instead of through a decoder (which would hide reformatting).
enum RawJSON {
    struct Malformed: Error {}

    /// Member names and value ranges of the object starting at `start`.
    static func members(_ bytes: [UInt8], objectAt start: Int) throws -> [(key: [UInt8], value: Range<Int>)] {
        var index = skipSpace(bytes, start)
        guard bytes[index] == UInt8(ascii: "{") else { throw Malformed() }
        index = skipSpace(bytes, index + 1)
        var members: [(key: [UInt8], value: Range<Int>)] = []
        if bytes[index] == UInt8(ascii: "}") { return members }
        while true {
            let keyEnd = try valueEnd(bytes, index)
            let key = Array(bytes[(index + 1)..<(keyEnd - 1)])
            index = skipSpace(bytes, keyEnd)
            guard bytes[index] == UInt8(ascii: ":") else { throw Malformed() }
            let valueStart = skipSpace(bytes, index + 1)
            let end = try valueEnd(bytes, valueStart)
            members.append((key, valueStart..<end))
            index = skipSpace(bytes, end)
            if bytes[index] == UInt8(ascii: "}") { return members }
            guard bytes[index] == UInt8(ascii: ",") else { throw Malformed() }
            index = skipSpace(bytes, index + 1)
        }
    }

    /// Raw ranges of the elements of the array starting at `start`.
    static func elements(_ bytes: [UInt8], arrayAt start: Int) throws -> [Range<Int>] {
        var index = skipSpace(bytes, start)
        guard bytes[index] == UInt8(ascii: "[") else { throw Malformed() }
        index = skipSpace(bytes, index + 1)
        var elements: [Range<Int>] = []
        if bytes[index] == UInt8(ascii: "]") { return elements }
        while true {
            let end = try valueEnd(bytes, index)
            elements.append(index..<end)
            index = skipSpace(bytes, end)
            if bytes[index] == UInt8(ascii: "]") { return elements }
            guard bytes[index] == UInt8(ascii: ",") else { throw Malformed() }
            index = skipSpace(bytes, index + 1)
        }
    }

    static func skipSpace(_ bytes: [UInt8], _ start: Int) -> Int {
        var index = start
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index
    }

    /// One past the end of the value starting at `start`.
    static func valueEnd(_ bytes: [UInt8], _ start: Int) throws -> Int {
        var index = start
        var depth = 0
        var inString = false
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { return index + 1 }
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 { return index }
                    depth -= 1
                    if depth == 0 { return index + 1 }
                case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D:
                    if depth == 0 { return index }
                default: break
                }
            }
            index += 1
        }
        if depth == 0, !inString { return index }
        throw Malformed()
    }
}
