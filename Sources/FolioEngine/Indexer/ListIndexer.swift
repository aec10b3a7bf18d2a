/// Streaming, validating indexer of upstream JSON lists (docs/API.md, "Snapshots", "Errors").
///
/// Feed each body's bytes chunk by chunk as they download; the indexer copies them into one
/// contiguous store, validates the whole document incrementally (a resumable state machine with
/// an explicit stack, so hostile nesting cannot overflow the call stack), finds the array at
/// `items`, records each direct element's byte range and hashes each completed element into the
/// snapshot token. A crawl feeds several bodies into one indexer; their elements form one list.
///
/// After an error the indexer is spent: every later call throws the same error.
public struct ListIndexer: Sendable {
    // Configuration.
    let maxBytes: Int
    let maxItems: Int
    let maxDepth: Int

    // The list being built.
    var store: [UInt8] = []
    var starts: [UInt32] = []
    var ends: [UInt32] = []
    var hasher: TokenHasher
    /// A background hashing pass over the store, running until `settle`.
    var hashing: TokenHasher.Pass?
    /// Store index where the bytes announced by `reserve` end, until `starts` and `ends` are
    /// reserved for their elements (`reserveRanges`); 0 when there is nothing to reserve.
    var announcedEnd = 0
    /// Whether `stage` copied bytes that `scanStaged` has not scanned yet.
    var staged = false
    var failure: FolioError?

    // Scanner state of the current body; see ListIndexer+Scanner.swift.
    var bodyStart = 0
    var bodyItemsStart = 0
    /// Store index where scanning resumes (start of an incomplete token or escape, if any).
    var resume = 0
    var phase = Phase.bodyStart
    var numberPart = NumberPart.integer
    var literal: UInt64 = 0
    var literalLength = 0
    var literalIndex = 0
    var bomMatched = 0
    /// Open containers, innermost last: bit 0 set for an object, bit 1 when a pointer watches it.
    var stack: [UInt8] = []
    var depth = 0
    var topIsObject = false
    var topRelevant = true
    var pendingRelevant = false
    /// Depth of the open items array (its elements start at this depth), or -1.
    var itemsDepth = -1
    var elementStart = 0
    var keyStart = 0
    var openCaptures = 0
    /// The items pointer first, then the capture pointers.
    var pointers: [PointerTrack]

    public init(items: JSONPointer, limits: IndexLimits, sort: [String], captures: [JSONPointer] = []) {
        maxBytes = limits.effectiveMaxBytes
        maxItems = max(0, limits.maxItems)
        maxDepth = max(0, limits.maxDepth)
        hasher = TokenHasher(sortPrefix: SnapshotToken.sortPrefix(sort))
        pointers = [PointerTrack(items)] + captures.map(PointerTrack.init)
        stack.reserveCapacity(min(maxDepth, 64))
    }

    /// Reserves room for the next body (its `Content-Length`), so the store is allocated once
    /// for a single body instead of doubling; across a crawl it still grows geometrically. Any
    /// length an upstream declares is capped at the limit before it is added (no overflow).
    public mutating func reserve(additionalBytes: Int) {
        precondition(hashing == nil, "ListIndexer: settle() before reserving")
        let needed = store.count + min(max(0, additionalBytes), max(0, maxBytes - store.count))
        announcedEnd = needed
        guard needed > store.capacity else { return }
        // Its pages are faulted in as the batches are copied in, on the worker that scans them.
        // Faulting them in ahead on the fill workers queued that work in front of the first
        // batches' scans, and the download waited for it (BENCHMARKS.md, "Cold fill").
        growStore(to: store.isEmpty ? needed : min(max(needed, store.capacity * 2), maxBytes))
    }

    private mutating func growStore(to capacity: Int) {
        store.reserveCapacity(capacity)
        HugePages.advise(store)
    }

    /// Convenience for `append(_: UnsafeRawBufferPointer)`.
    public mutating func append(_ chunk: [UInt8]) throws(FolioError) {
        try chunk.withUnsafeBufferPointer { (bytes) throws(FolioError) in try append(UnsafeRawBufferPointer(bytes)) }
    }

    /// Copies and scans the next bytes of the current body; throws as soon as they cannot start
    /// a valid body or exceed a limit, so a bad download can be cancelled early. Hashes in line.
    public mutating func append(_ chunk: UnsafeRawBufferPointer) throws(FolioError) {
        try stage(chunk)
        try scanStaged(background: false)
    }

    /// Waits for the hashing pass `scanStaged(background: true)` may have left running (it
    /// suspends the task, it never blocks a thread).
    public mutating func settle() async {
        guard let pass = hashing else { return }
        await pass.finished()
        hasher.adopt(pass)
        hashing = nil
    }

    /// Copies the next bytes of the current body into the store without scanning them; a
    /// batch of downloaded chunks is staged one by one, then scanned at once (`scanStaged`).
    /// Throws as soon as they exceed `maxBytes`.
    public mutating func stage(_ chunk: UnsafeRawBufferPointer) throws(FolioError) {
        if let failure { throw failure }
        precondition(hashing == nil, "ListIndexer: settle() before appending again")
        guard !chunk.isEmpty else { return }
        guard chunk.count <= maxBytes - store.count else {
            let error = FolioError.upstreamLimit(
                "upstream list exceeds limits.maxUpstreamBytes (\(maxBytes) bytes)", limit: .maxUpstreamBytes)
            failure = error
            throw error
        }
        if chunk.count > store.capacity - store.count {
            growStore(to: min(max(store.count + chunk.count, store.capacity * 2, 16 << 10), maxBytes))
        }
        store.append(contentsOf: chunk)
        staged = true
    }

    /// Scans the staged bytes, the earlier chunks' elements hashed on another core meanwhile
    /// when `background` (then `settle()` must be awaited before the next `stage`); throws as
    /// soon as they cannot continue a valid body or exceed a limit.
    public mutating func scanStaged(background: Bool) throws(FolioError) {
        if let failure { throw failure }
        guard staged else { return }
        precondition(hashing == nil, "ListIndexer: settle() before appending again")
        staged = false
        do throws(FolioError) {
            try store.withUnsafeBufferPointer { (buffer) throws(FolioError) in
                let base = buffer.baseAddress!
                // Earlier chunks are hashed on another core while this one is scanned.
                hashing = hasher.startHashing(store, base: base, background: background)
                try scan(base, upTo: buffer.count)
                hasher.endRun()
            }
            if announcedEnd > 0 { reserveRanges() }
        } catch {
            failure = error
            throw error
        }
    }

    /// Once `rangeSample` elements are indexed, reserves `starts` and `ends` for the elements
    /// the rest of the announced bytes should hold at the average size so far, plus a sixteenth:
    /// grown by doubling instead, they were copied and their fresh pages faulted in again at
    /// each step (7% of the indexing thread on the benchmark list), and copied once more to trim
    /// them at `finish`.
    private mutating func reserveRanges() {
        let sampled = starts.count
        guard sampled >= Self.rangeSample else { return }
        defer { announcedEnd = 0 }
        guard announcedEnd > store.count else { return }
        let perByte = Double(sampled) / Double(store.count)
        let expected = sampled + Int(Double(announcedEnd - store.count) * perByte)
        let capacity = min(expected + expected / 16, maxItems)
        guard capacity > starts.capacity else { return }
        starts.reserveCapacity(capacity)
        ends.reserveCapacity(capacity)
        HugePages.prepare(starts)
        HugePages.prepare(ends)
    }

    /// Elements indexed before `reserveRanges` estimates the list's length from them.
    static let rangeSample = 512

    /// Ends the current body: it must be one complete JSON value (trailing whitespace is fine)
    /// with an array at `items`. The next `append` starts a new body.
    public mutating func endBody() throws(FolioError) -> IndexedBody {
        try scanStaged(background: false)
        do throws(FolioError) {
            return try finishBody()
        } catch {
            failure = error
            throw error
        }
    }

    /// Ends a body still being fed, then returns the list and its snapshot token. The store is
    /// trimmed so a cached list holds no slack capacity, and so are the element ranges unless
    /// `reserveRanges` sized them within an eighth (a copy to save at most 1 byte per element).
    public consuming func finish() throws(FolioError) -> (list: ItemList, token: String) {
        if let failure { throw failure }
        precondition(hashing == nil, "ListIndexer: settle() before finishing")
        if store.count > bodyStart { _ = try endBody() }
        let token = store.withUnsafeBufferPointer { hasher.token($0.baseAddress) }
        return (
            ItemList(
                bytes: Self.trimmed(store), starts: Self.trimmed(starts, slack: max(256, starts.count / 8)),
                ends: Self.trimmed(ends, slack: max(256, ends.count / 8))), token
        )
    }

    /// The store, holding no slack: a large store's unused capacity is given back to the
    /// kernel where it is (`HugePages.releaseUnused`), a small one is copied to its exact size
    /// when more than 4 KiB is unused. Copying a large one held a second body at the fill's
    /// peak: a chunked upstream's store, which had doubled, peaked at 2.2 × body.
    private static func trimmed(_ store: [UInt8]) -> [UInt8] {
        guard store.capacity - store.count > 4096 else { return store }
        guard store.count < largeStore else {
            HugePages.releaseUnused(store)
            return store
        }
        return Array(unsafeUninitializedCapacity: store.count) { buffer, count in
            HugePages.advise(UnsafeRawPointer(buffer.baseAddress), byteCount: buffer.count)
            store.withUnsafeBufferPointer { source in
                _ = buffer.initialize(fromContentsOf: source)
            }
            count = store.count
        }
    }

    /// From this size on, a store is trimmed in place.
    static let largeStore = 1 << 20

    /// A copy with exact capacity when `array` holds more than `slack` unused elements (malloc
    /// rounds sizes up, so a smaller slack would not shrink).
    private static func trimmed<T>(_ array: [T], slack: Int) -> [T] {
        guard array.capacity - array.count > slack else { return array }
        return Array(unsafeUninitializedCapacity: array.count) { buffer, count in
            array.withUnsafeBufferPointer { source in
                _ = buffer.initialize(fromContentsOf: source)
            }
            count = array.count
        }
    }

    private mutating func finishBody() throws(FolioError) -> IndexedBody {
        let end = store.count
        switch phase {
        case .done:
            break
        case .number where depth == 0 && numberPart.isComplete:
            closeNumberAtBodyEnd()
        case .bodyStart where end == bodyStart:
            throw FolioError.badUpstreamBody("invalid JSON at byte 0: empty body")
        default:
            throw invalidJSON(at: end, "unexpected end of body, \(phase.expectation)")
        }
        let items = pointers[0]
        guard items.status == .resolved else {
            throw FolioError.badUpstreamBody("no array at items pointer '\(items.pointer)': \(items.missingDetail)")
        }
        var captures: [JSONPointer: [UInt8]] = [:]
        for track in pointers.dropFirst() where track.status == .resolved {
            captures[track.pointer] = Array(store[track.valueStart..<track.valueEnd])
        }
        let body = IndexedBody(itemCount: starts.count - bodyItemsStart, captures: captures)
        hasher.endBody()
        resetBody()
        return body
    }

    private mutating func closeNumberAtBodyEnd() {
        // A top-level number is never a list element, so there is nothing to hash.
        phase = .done
        if openCaptures > 0 { closeCaptures(at: store.count) }
    }

    private mutating func resetBody() {
        bodyStart = store.count
        bodyItemsStart = starts.count
        resume = store.count
        phase = .bodyStart
        stack.removeAll(keepingCapacity: true)
        depth = 0
        topIsObject = false
        topRelevant = true
        pendingRelevant = false
        itemsDepth = -1
        openCaptures = 0
        for index in pointers.indices { pointers[index].reset() }
    }
}
