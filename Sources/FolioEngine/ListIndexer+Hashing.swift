import Crypto

/// Feeds completed elements into the snapshot-token SHA-256 (SPEC 3.4) with few update calls.
///
/// Compact lists (`…},{…`) are hashed straight from the store as one run, commas included;
/// other small elements are gathered in a scratch buffer, because one `update` per element
/// would cost as much as the hashing itself on pretty-printed bodies.
///
/// `@unchecked Sendable`: `SHA256` is a copy-on-write value (its context is copied before a
/// shared one is written) that swift-crypto 3.x does not mark `Sendable`.
struct TokenHasher: @unchecked Sendable {
    private var sha = SHA256()
    private var scratch: [UInt8] = []
    private var runStart = 0
    /// End of the run of store bytes not yet hashed; -1 when there is none.
    private var runEnd = -1
    /// Store index just past the previous element of the current body; -1 at a body's start.
    private var lastEnd = -1
    private var hashedAny = false

    private static let scratchCapacity = 16 << 10
    private static let comma = UInt8(ascii: ",")

    init(sortPrefix: [UInt8]) {
        sha.update(data: sortPrefix + [UInt8(ascii: "\n")])
        scratch.reserveCapacity(Self.scratchCapacity)
    }

    /// Adds the element at `base[start..<end]`, preceded by a comma unless it is the first.
    @inline(__always)
    mutating func element(_ base: UnsafePointer<UInt8>, start: Int, end: Int) {
        defer {
            lastEnd = end
            hashedAny = true
        }
        if lastEnd >= 0, start == lastEnd + 1, base[lastEnd] == Self.comma {
            if runEnd == lastEnd {
                runEnd = end
            } else {
                flushScratch()
                runStart = lastEnd
                runEnd = end
            }
            return
        }
        flushRun(base)
        let length = end - start
        if scratch.count + length + 1 > Self.scratchCapacity { flushScratch() }
        if hashedAny { scratch.append(Self.comma) }
        if length < Self.scratchCapacity / 4 {
            scratch.append(contentsOf: UnsafeBufferPointer(start: base + start, count: length))
        } else {
            flushScratch()
            sha.update(bufferPointer: UnsafeRawBufferPointer(start: base + start, count: length))
        }
    }

    /// Hashes the pending run; called before the store may move (end of each chunk).
    mutating func flushRun(_ base: UnsafePointer<UInt8>) {
        guard runEnd >= 0 else { return }
        sha.update(bufferPointer: UnsafeRawBufferPointer(start: base + runStart, count: runEnd - runStart))
        runEnd = -1
    }

    /// A body ended: the next element cannot join a run with this body's last one.
    mutating func endBody(_ base: UnsafePointer<UInt8>?) {
        if let base { flushRun(base) }
        lastEnd = -1
    }

    private mutating func flushScratch() {
        guard !scratch.isEmpty else { return }
        scratch.withUnsafeBytes { sha.update(bufferPointer: $0) }
        scratch.removeAll(keepingCapacity: true)
    }

    /// The token; every run must have been flushed.
    mutating func token() -> String {
        precondition(runEnd < 0, "flushRun before token()")
        flushScratch()
        return SnapshotToken.text(of: sha.finalize())
    }
}
