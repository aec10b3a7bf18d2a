#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ViewChanges.Pairing {
    /// Marks the common items the request writes differently, visiting them in the order of
    /// the new list's elements (so both lists' bytes are read front to back, whatever the view's
    /// order). False when a pair made on its hash alone (`exact` false) holds two ids.
    mutating func compare(
        _ sides: Sides, form: ItemForm, newPlaces: inout ViewChanges.ViewPositions, exact: Bool
    ) -> Bool {
        let (old, new) = (sides.old, sides.new)
        var scratch: (left: [UInt8], right: [UInt8]) = ([], [])
        return old.list.bytes.withUnsafeBufferPointer { oldBytes in
            new.list.bytes.withUnsafeBufferPointer { newBytes in
                newPlaces.forEachInElementOrder { position, newElement in
                    let oldPosition = Int(oldPositions[position])
                    guard oldPosition >= 0 else { return true }
                    let oldElement = old.elementIndex(at: oldPosition)
                    if Self.sameBytes(old.list, oldBytes, oldElement, new.list, newBytes, newElement) { return true }
                    if !exact, !sides.sameID(oldElement, oldBytes, newElement, newBytes) { return false }
                    if form.differs(
                        oldBytes, old.list.range(of: oldElement), newBytes, new.list.range(of: newElement),
                        scratch: &scratch)
                    {
                        changed[position] = true
                        changedCount += 1
                    }
                    return true
                }
            }
        }
    }

    /// Whether two elements are the same bytes.
    @inline(__always)
    static func sameBytes(
        _ oldList: ItemList, _ oldBytes: UnsafeBufferPointer<UInt8>, _ oldElement: Int, _ newList: ItemList,
        _ newBytes: UnsafeBufferPointer<UInt8>, _ newElement: Int
    ) -> Bool {
        let a = oldList.range(of: oldElement)
        let b = newList.range(of: newElement)
        return a.count == b.count
            && memcmp(oldBytes.baseAddress! + a.lowerBound, newBytes.baseAddress! + b.lowerBound, a.count) == 0
    }
}

extension ViewChanges {
    /// Where an element stands in a view, for items found by id rather than in step. A view in
    /// upstream order answers by arithmetic; a sorted or filtered one builds its inverse on the
    /// first question (4 bytes an element of the list, for this diff only).
    struct ViewPositions {
        let view: ListView
        private var positions: [Int32]?

        init(_ view: ListView) { self.view = view }

        mutating func position(of element: Int) -> Int? {
            guard let order = view.order else {
                return view.window.contains(element) ? element - view.window.lowerBound : nil
            }
            if positions == nil { positions = Self.inverse(view, order) }
            let position = positions![element]
            return position >= 0 ? Int(position) : nil
        }

        /// Calls `body` with each position of the view and its element, by ascending element,
        /// until it returns false; returns whether it never did.
        mutating func forEachInElementOrder(_ body: (_ position: Int, _ element: Int) -> Bool) -> Bool {
            guard let order = view.order else {
                for position in 0..<view.count where !body(position, view.window.lowerBound + position) {
                    return false
                }
                return true
            }
            if positions == nil { positions = Self.inverse(view, order) }
            for (element, position) in positions!.enumerated() where position >= 0 {
                guard body(Int(position), element) else { return false }
            }
            return true
        }

        private static func inverse(_ view: ListView, _ order: [UInt32]) -> [Int32] {
            var inverse = [Int32](repeating: -1, count: view.list.count)
            for position in 0..<view.count { inverse[Int(order[view.window.lowerBound + position])] = Int32(position) }
            return inverse
        }
    }
}
