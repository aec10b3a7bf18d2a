/// Paging metadata and link offsets of one page, per docs/API.md, "The page".
///
/// Fluent clients assert that every page but the last is full, so `last` is the start of the
/// final full-size-aligned page and unaligned offsets step by `pageSize` from where they are.
public struct Paging: Sendable, Hashable {
    public let totalCount: Int
    public let offset: Int
    public let pageSize: Int
    public let pageBase: Int
    /// nil when `offset` is not a multiple of `pageSize`.
    public let page: Int?
    /// ceil(totalCount / pageSize); 0 on an empty list.
    public let pageCount: Int
    /// Link offsets; on an empty list `first` and `last` are 0 and the others nil.
    public let first: Int?
    public let previous: Int?
    public let next: Int?
    public let last: Int?

    public var hasMore: Bool { next != nil }

    /// Positions of the page's items in the list; empty (at `totalCount`) when `offset` is at or
    /// past the end.
    public var items: Range<Int> {
        guard offset < totalCount else { return totalCount..<totalCount }
        return offset..<(offset + min(pageSize, totalCount - offset))
    }

    public init(totalCount: Int, offset: Int, pageSize: Int, pageBase: Int) {
        precondition(totalCount >= 0 && offset >= 0 && pageSize > 0, "paging needs counts >= 0 and pageSize >= 1")
        self.totalCount = totalCount
        self.offset = offset
        self.pageSize = pageSize
        self.pageBase = pageBase
        page = offset % pageSize == 0 ? offset / pageSize + pageBase : nil
        guard totalCount > 0 else {
            pageCount = 0
            first = 0
            last = 0
            previous = nil
            next = nil
            return
        }
        // Written to avoid `offset + pageSize`, which a public caller could overflow.
        let lastPage = (totalCount - 1) / pageSize
        pageCount = lastPage + 1
        let lastOffset = lastPage * pageSize
        first = 0
        last = lastOffset
        if offset >= totalCount {
            next = nil
            previous = lastOffset
        } else {
            next = pageSize < totalCount - offset ? offset + pageSize : nil
            previous = offset == 0 ? nil : max(0, offset - pageSize)
        }
    }
}
