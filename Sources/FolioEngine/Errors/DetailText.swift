/// Client text echoed in problem details is clipped so a huge query cannot blow up the answer
/// (docs/API.md, "Errors": a detail quotes at most 200 bytes of an offending value). Every
/// problem that quotes what a client sent goes through `clip`.
package enum DetailText {
    /// The most bytes of one client value a problem's detail quotes.
    package static let maxQuotedBytes = 200

    /// `text` whole when it has at most `limit` UTF-8 bytes; otherwise its longest prefix of
    /// whole Unicode scalars within `limit` bytes, then `…`. Scalars, not Characters: one
    /// Character may hold any number of combining marks.
    package static func clip(_ text: String, limit: Int = maxQuotedBytes) -> String {
        let utf8 = text.utf8
        guard utf8.count > limit else { return text }
        var end = utf8.index(utf8.startIndex, offsetBy: limit)
        // Back up to the first byte of a scalar: continuation bytes are 10xxxxxx.
        while end > utf8.startIndex, utf8[end] & 0xC0 == 0x80 { end = utf8.index(before: end) }
        return String(decoding: utf8[..<end], as: UTF8.self) + "…"
    }
}
