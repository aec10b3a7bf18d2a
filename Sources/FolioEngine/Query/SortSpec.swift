/// One field of a sort and its direction.
public struct SortKey: Sendable, Hashable {
    public let field: FieldPath
    public let descending: Bool

    public init(_ field: FieldPath, descending: Bool = false) {
        self.field = field
        self.descending = descending
    }
}

/// A list order: keys compared in turn, remaining ties in upstream order (docs/API.md, "Sorting").
public struct SortSpec: Sendable, Hashable {
    public let keys: [SortKey]

    public init(keys: [SortKey]) {
        self.keys = keys
    }

    /// `["name", "-price"]`: a leading `-` means descending (docs/CONFIG.md,
    /// "Grammar and validation"). An empty field (`""` or `"-"`) or a malformed JSON Pointer is a
    /// 400.
    public init(parsing fields: [String]) throws(FolioError) {
        var keys: [SortKey] = []
        keys.reserveCapacity(fields.count)
        for field in fields {
            if field.utf8.first == UInt8(ascii: "-") {
                keys.append(SortKey(try FieldPath(String(field.dropFirst())), descending: true))
            } else {
                keys.append(SortKey(try FieldPath(field)))
            }
        }
        self.keys = keys
    }

    /// The keys as written (`name`, `-price`): what a snapshot token's sort prefix hashes.
    public var texts: [String] { keys.map { ($0.descending ? "-" : "") + $0.field.text } }

    /// No keys: the upstream order.
    public static let upstream = SortSpec(keys: [])
}
