/// The indexer's fast path: whole elements of an items array that no pointer looks into.
///
/// There the state machine's bookkeeping (pointers, captures, the container stack, a phase per
/// token) has nothing to do but validate, so `skimValue` reads an element with local state only:
/// nesting in a 64-bit word, string runs found in 64-byte windows (`StringWindow`), digit runs
/// and whitespace 16 or 32 bytes at a time (`Bytes16`), literals compared as words. It never
/// throws, and starts no token within `skimMargin` bytes of the chunk's end (so every load stays
/// inside the chunk): at anything it does not handle (an error, a number over 31 bytes, deep
/// nesting, a token near the chunk's end) it gives up on the element, and the byte-by-byte
/// machine reads that element from its first byte, reporting any error exactly as before.
extension ListIndexer {
    /// Bytes the skim leaves before the chunk's end: no token starts there, so a string's
    /// 64-byte window and any other look-ahead stay inside the chunk.
    static let skimMargin = 64

    /// Element ranges the skim gathers before appending them to `starts` and `ends` at once:
    /// an `append` per element (a uniqueness and a capacity check, out of line) cost a tenth
    /// of the indexing.
    static let skimBatch = 64

    /// Indexes whole elements from `i` while the scanner sits in the items array between
    /// elements (phase `.afterValue`, `.value` or `.valueOrArrayEnd`, nothing watched inside),
    /// leaving `i` and `phase` where the scalar machine takes over.
    @inline(__always)
    mutating func skimElements(_ base: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int) {
        let limit = end &- Self.skimMargin
        var at = i
        if phase == .afterValue {
            guard skimComma(base, &at, &i, before: limit) else { return }
        }
        let depthBudget = maxDepth &- depth
        var window = StringWindow(before: at)
        KeyShapes.withNone { keys in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 &* Self.skimBatch) { batch in
                // Starts in batch[0..<skimBatch], ends in batch[skimBatch...].
                var gathered = 0
                defer { appendRanges(batch, gathered) }
                while true {
                    Self.skimWhitespace(base, &at, before: limit)
                    i = at
                    guard at < limit, starts.count &+ gathered < maxItems,
                        let elementEnd = Self.skimValue(
                            base, at: at, before: limit, depthBudget: depthBudget, window: &window, keys: keys)
                    else { return }
                    if gathered == Self.skimBatch {
                        appendRanges(batch, gathered)
                        gathered = 0
                    }
                    batch[gathered] = UInt32(truncatingIfNeeded: at)
                    batch[Self.skimBatch &+ gathered] = UInt32(truncatingIfNeeded: elementEnd)
                    gathered &+= 1
                    hasher.element(base, start: at, end: elementEnd)
                    elementStart = at
                    at = elementEnd
                    phase = .afterValue
                    i = at
                    guard skimComma(base, &at, &i, before: limit) else { return }
                }
            }
        }
    }

    /// Appends the first `count` ranges gathered in `batch` (see `skimElements`).
    @inline(__always)
    private mutating func appendRanges(_ batch: UnsafeMutableBufferPointer<UInt32>, _ count: Int) {
        starts.append(contentsOf: UnsafeBufferPointer(rebasing: batch[0..<count]))
        ends.append(contentsOf: UnsafeBufferPointer(rebasing: batch[Self.skimBatch..<(Self.skimBatch &+ count)]))
    }

    /// After an element (phase `.afterValue`): past whitespace and the comma to the next
    /// element (phase `.value`), or false where the scalar machine takes over (`i` kept at the
    /// last position both agree on).
    @inline(__always)
    private mutating func skimComma(
        _ base: UnsafePointer<UInt8>, _ at: inout Int, _ i: inout Int, before limit: Int
    ) -> Bool {
        Self.skimWhitespace(base, &at, before: limit)
        i = at
        guard at < limit, base[at] == UInt8(ascii: ",") else { return false }
        at &+= 1
        phase = .value
        i = at
        return true
    }

    /// The end of the valid value starting at `base[start]` (not whitespace), or nil when the
    /// skim gives up; `depthBudget` is how many containers deep it may nest; `window` is kept
    /// from one element to the next (the bytes it classified do not change). Reads below
    /// `limit + skimMargin` only; `keys` are the keys of the element before (see `KeyShapes`),
    /// and get this one's. One loop, one copy of each token's code: the string scan serves keys
    /// and values alike, so the compiler inlines it once instead of calling it.
    static func skimValue(
        _ base: UnsafePointer<UInt8>, at start: Int, before limit: Int, depthBudget: Int, window: inout StringWindow,
        keys: KeyShapes
    ) -> Int? {
        var i = start
        /// Bit k: the container at level k + 1 is an object.
        var objects: UInt64 = 0
        var level = 0
        /// The next token is an object key (a string, then a colon).
        var key = false
        /// Keys read so far in this element, at any depth.
        var keyIndex = 0
        let maxLevel = min(depthBudget, 64)
        let margin = skimMargin
        token: while true {
            guard i < limit else { return nil }
            let c = base[i]
            if c == UInt8(ascii: "\"") {
                if key, let length = keys.match(keyIndex, base, at: i) {
                    keyIndex &+= 1
                    i &+= length
                    skimWhitespace(base, &i, before: limit)
                    key = false
                    continue token
                }
                let stringStart = i
                i &+= 1
                string: while true {
                    var offset = i &- window.start
                    if offset >= 64 || window.stops &>> UInt64(offset) == 0 {
                        // No stop left in the window: plain text to its end, so the next
                        // window starts there (or at `i`, past an older window).
                        if offset < 64 { i = window.start &+ 64 }
                        guard i < limit else { return nil }
                        window.load(base, at: i)
                        offset = 0
                        guard window.stops != 0 else { continue string }
                    }
                    let ahead: UInt64 = window.stops &>> UInt64(offset)
                    let quotesAhead: UInt64 = window.quotes &>> UInt64(offset)
                    i &+= ahead.trailingZeroBitCount
                    if ahead & (0 &- ahead) & quotesAhead != 0 {
                        i &+= 1
                        break string
                    }
                    guard i < limit else { return nil }
                    let special = base[i]
                    if special == UInt8(ascii: "\\") {
                        switch base[i &+ 1] {
                        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                            UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                            i &+= 2
                        case UInt8(ascii: "u"):
                            guard isHexDigit(base[i &+ 2]), isHexDigit(base[i &+ 3]), isHexDigit(base[i &+ 4]),
                                isHexDigit(base[i &+ 5])
                            else { return nil }
                            i &+= 6
                        default:
                            return nil
                        }
                    } else if special >= 0x80 {
                        let length = utf8Length(base, at: i, end: limit &+ margin)
                        guard length > 0 else { return nil }
                        i &+= length
                    } else {
                        return nil  // a control character
                    }
                }
                if key {
                    if base[i] == UInt8(ascii: ":") { keys.keep(keyIndex, base, start: stringStart, end: i &+ 1) }
                    keyIndex &+= 1
                    skimWhitespace(base, &i, before: limit)
                    guard i < limit, base[i] == UInt8(ascii: ":") else { return nil }
                    i &+= 1
                    skimWhitespace(base, &i, before: limit)
                    key = false
                    continue token
                }
            } else if key {
                return nil
            } else if c &- UInt8(ascii: "0") < 10 || c == UInt8(ascii: "-") {
                guard let after = plainNumberEnd(base, at: i) else { return nil }
                i = after
            } else if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
                guard level < maxLevel else { return nil }
                let isObject = c == UInt8(ascii: "{")
                if isObject { objects |= 1 << UInt64(level) } else { objects &= ~(1 << UInt64(level)) }
                level &+= 1
                i &+= 1
                skimWhitespace(base, &i, before: limit)
                guard i < limit else { return nil }
                if base[i] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    i &+= 1
                    level &-= 1
                } else {
                    key = isObject
                    continue token
                }
            } else {
                let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt32.self)
                if word == UInt32(truncatingIfNeeded: trueLiteral) || word == UInt32(truncatingIfNeeded: nullLiteral) {
                    i &+= 4
                } else if word == UInt32(truncatingIfNeeded: falseLiteral)
                    && base[i &+ 4] == UInt8(truncatingIfNeeded: falseLiteral >> 32)
                {
                    i &+= 5
                } else {
                    return nil
                }
            }
            // After a value: commas and closing brackets until the next token or the end.
            while true {
                guard level > 0 else { return i }
                skimWhitespace(base, &i, before: limit)
                guard i < limit else { return nil }
                let next = base[i]
                let inObject = (objects >> UInt64(level &- 1)) & 1 != 0
                if next == UInt8(ascii: ",") {
                    i &+= 1
                    skimWhitespace(base, &i, before: limit)
                    key = inObject
                    continue token
                }
                guard next == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return nil }
                i &+= 1
                level &-= 1
            }
        }
    }

    /// Skips whitespace 16 bytes at a time, stopping at `limit`.
    @inline(__always)
    static func skimWhitespace(_ base: UnsafePointer<UInt8>, _ i: inout Int, before limit: Int) {
        while i < limit, base[i] <= 0x20 {
            let run = (~Bytes16(base + i).whitespace).trailingZeroBitCount
            guard run > 0 else { return }
            i &+= run
        }
    }
}
