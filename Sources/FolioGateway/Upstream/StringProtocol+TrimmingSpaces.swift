/// Kept in its own file, free of any import, so the Link header fuzz target (Fuzz/) can compile
/// `LinkHeader.swift` with it alone.
extension StringProtocol {
    /// Trims spaces and tabs only, without Foundation.
    func trimmingSpaces() -> SubSequence {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[start...end]
    }
}
