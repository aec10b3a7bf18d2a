import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ItemList {
    /// Whether no item of `elements` is an object that names a member twice at its top level.
    /// Where none does, the first member of a name is also the last, which `JSON.parse` (and so
    /// Folio, docs/API.md "Sorting") takes: a lookup may stop there instead of reading the rest
    /// of the item (`FieldPath.valueStart(…, firstMemberWins:)`). An escaped name, or more than
    /// `MemberNamesCheck.membersCompared` members, counts as a possible repeat.
    func namesMembersOnce(_ elements: Range<Int>) -> Bool {
        bytes.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return true }
            var keys: [Range<Int>] = []
            keys.reserveCapacity(MemberNamesCheck.membersCompared)
            for element in elements {
                let range = self.range(of: element)
                var at = range.lowerBound
                JSONScan.skipWhitespace(bytes, &at, range.upperBound)
                guard at < range.upperBound, bytes[at] == UInt8(ascii: "{") else { continue }
                keys.removeAll(keepingCapacity: true)
                var repeats = false
                JSONScan.forEachMember(bytes, at, range.upperBound) { key, escaped, _ in
                    guard !escaped, keys.count < MemberNamesCheck.membersCompared else {
                        repeats = true
                        return false
                    }
                    for other in keys
                    where other.count == key.count
                        && memcmp(base + other.lowerBound, base + key.lowerBound, key.count) == 0
                    {
                        repeats = true
                        return false
                    }
                    keys.append(key)
                    return true
                }
                if repeats { return false }
            }
            return true
        }
    }
}

/// `SnapshotIndexes.membersNamedOnce`, checked once per snapshot (in chunks on the fill workers
/// when a worker asks), however many lookups ask at once.
final class MemberNamesCheck: Sendable {
    /// Members of one item compared with each other; an item with more counts as repeating.
    static let membersCompared = 32
    /// Items per chunk of the check.
    static let chunk = 65_536

    private let result = Mutex<Bool?>(nil)
    private let once = OnceEach<Int>()

    func namesMembersOnce(_ list: ItemList) -> Bool {
        once.value(0, cached: { result.withLock { $0 } }) {
            let chunks = (list.count + Self.chunk - 1) / Self.chunk
            let repeats = Mutex(false)
            FillWorkers.shared.performAll(iterations: chunks) { index in
                let start = index * Self.chunk
                let range = start..<min(list.count, start + Self.chunk)
                if !list.namesMembersOnce(range) { repeats.withLock { $0 = true } }
            }
            let once = !repeats.withLock { $0 }
            result.withLock { $0 = once }
            return once
        }
    }
}

extension SnapshotIndexes {
    /// No item names a top-level member twice: lookups of this snapshot's fields stop at the
    /// first member of the name.
    public var membersNamedOnce: Bool { memberNames.namesMembersOnce(list) }
}
