/// Which elements of an `ItemList` form the list being paged: all of them in upstream order, or a
/// window of a permutation (sorted orders and sections are contiguous windows of one).
public struct ListView: Sendable {
    public let list: ItemList
    /// Element indexes in the list's paged order; nil: upstream order.
    public let order: [UInt32]?
    /// Positions in `order` (or in the list when `order` is nil).
    public let window: Range<Int>

    /// `window` defaults to everything.
    public init(list: ItemList, order: [UInt32]? = nil, window: Range<Int>? = nil) {
        let available = order?.count ?? list.count
        let window = window ?? 0..<available
        precondition(window.lowerBound >= 0 && window.upperBound <= available, "window outside the list")
        self.list = list
        self.order = order
        self.window = window
    }

    public var count: Int { window.count }

    /// The list element at `position` (in `0..<count`) of the view.
    @inlinable public func elementIndex(at position: Int) -> Int {
        if let order { Int(order[window.lowerBound + position]) } else { window.lowerBound + position }
    }
}
