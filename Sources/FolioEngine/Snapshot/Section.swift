/// One entry of a section index (docs/API.md, "Section index"): the items from `offset` to
/// `offset + count` of the order the index was built on.
public struct Section: Sendable, Hashable {
    /// Nil for the last section of `groupBy=FIELD` (missing, null, objects and arrays).
    public let title: String?
    /// What selects the section: the `beginsWith` or `?FIELD=` value (decoded string, first-seen
    /// number text, `true`/`false`); nil for the null section.
    public let value: String?
    public let count: Int
    public let offset: Int

    public init(title: String?, value: String?, count: Int, offset: Int) {
        self.title = title
        self.value = value
        self.count = count
        self.offset = offset
    }
}
