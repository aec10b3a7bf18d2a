/// The request target split into its raw path and raw query, both exactly as sent.
struct RequestTarget: Sendable {
    let raw: String
    let path: Substring
    /// nil when there is no `?`.
    let query: Substring?

    init(_ raw: String) {
        self.raw = raw
        // The byte, not the Character: `?` followed by a combining mark is one Character.
        if let q = raw.utf8.firstIndex(of: UInt8(ascii: "?")) {
            path = raw[..<q]
            query = raw[raw.index(after: q)...]
        } else {
            path = raw[...]
            query = nil
        }
    }
}
