/// Parsing of the raw query text (after `?`), following docs/API.md, "Requests": percent-decoding
/// as UTF-8 with `+` as a space, strict about bad escapes because Hummingbird's own parser is not
/// (it leaves keys encoded, so `page%53ize` would slip past duplicate detection).
public enum QueryString {
    /// Splits on `&` (empty pieces skipped) and decodes keys and values.
    /// An invalid escape or invalid UTF-8 is a 400 (`invalid-query`).
    ///
    /// `&` and `=` are found as bytes, never as `Character`s: a combining mark right after them
    /// (`&\u{301}`) forms one grapheme cluster with them, which would hide the boundary from
    /// Folio while every other parser (and Folio's own links, once percent-encoded) still sees it.
    public static func parse(_ query: Substring) throws(FolioError) -> [QueryParameter] {
        var result: [QueryParameter] = []
        for bytes in query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let piece = Substring(bytes)
            let key: String
            let value: String
            let hasValue: Bool
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                key = try decode(Substring(bytes[..<equals]))
                value = try decode(Substring(bytes[bytes.index(after: equals)...]))
                hasValue = true
            } else {
                key = try decode(piece)
                value = ""
                hasValue = false
            }
            result.append(QueryParameter(raw: piece, key: key, value: value, hasValue: hasValue))
        }
        return result
    }

    /// Decodes one key or value: `+` is a space, `%XX` a byte; the bytes must be UTF-8.
    static func decode(_ text: Substring) throws(FolioError) -> String {
        let utf8 = text.utf8
        // Most parameters need no decoding; skip the byte copy for them.
        if !utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            utf8.formIndex(after: &index)
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard index != utf8.endIndex, let high = URIText.hexValue(utf8[index]) else {
                    throw .invalidQuery("invalid percent-escape in \"\(DetailText.clip(String(text)))\"")
                }
                utf8.formIndex(after: &index)
                guard index != utf8.endIndex, let low = URIText.hexValue(utf8[index]) else {
                    throw .invalidQuery("invalid percent-escape in \"\(DetailText.clip(String(text)))\"")
                }
                utf8.formIndex(after: &index)
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw .invalidQuery("\"\(DetailText.clip(String(text)))\" does not decode to valid UTF-8")
        }
        return decoded
    }
}
