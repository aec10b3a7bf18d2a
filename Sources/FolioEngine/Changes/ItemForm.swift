/// How a request writes each item (docs/API.md, "Changes between snapshots"): what a patch's
/// `value`s hold, and so what makes a common item `replace`d — two items whose bytes differ
/// but that this request writes alike (with `?fields=`, a change in a member it leaves out)
/// are unchanged for it.
public struct ItemForm: Sendable {
    enum Kind: Sendable {
        case whole
        case fields(SparseFields)
        case custom(@Sendable (_ item: UnsafeRawBufferPointer, _ output: inout [UInt8]) -> Void)
    }

    let kind: Kind

    /// Each item's bytes exactly as the upstream wrote them.
    public static let whole = ItemForm(kind: .whole)

    /// Each item cut to `fields` as pages cut it (docs/API.md, "Requests": `?fields=`); the
    /// whole item when `fields` is nil.
    public static func fields(_ fields: SparseFields?) -> ItemForm {
        fields.map { ItemForm(kind: .fields($0)) } ?? .whole
    }

    /// Any other form: `write` appends what this request writes for the item whose bytes
    /// (between its first and last character, as the upstream wrote them) it is given. It must
    /// write the same bytes for the same item every time.
    public static func custom(
        _ write: @escaping @Sendable (_ item: UnsafeRawBufferPointer, _ output: inout [UInt8]) -> Void
    ) -> ItemForm {
        ItemForm(kind: .custom(write))
    }

    /// Writes the item at `range` of `bytes`. A counting pass counts sparse items whole (an
    /// upper bound), as `PageItems` does.
    func write(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, to sink: inout some ByteSink) {
        switch kind {
        case .whole:
            sink.write(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[range]))
        case .fields(let fields):
            if sink.isCounting {
                sink.write(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[range]))
            } else {
                fields.write(bytes, range, to: &sink)
            }
        case .custom(let write):
            var output: [UInt8] = []
            write(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[range]), &output)
            output.withUnsafeBytes { sink.write($0) }
        }
    }

    /// Whether two items whose bytes differ are written differently by this form. `scratch`
    /// holds the two written forms (reused between calls).
    func differs(
        _ a: UnsafeBufferPointer<UInt8>, _ aRange: Range<Int>, _ b: UnsafeBufferPointer<UInt8>, _ bRange: Range<Int>,
        scratch: inout (left: [UInt8], right: [UInt8])
    ) -> Bool {
        if case .whole = kind { return true }
        scratch.left.removeAll(keepingCapacity: true)
        scratch.right.removeAll(keepingCapacity: true)
        write(a, aRange, to: &scratch.left)
        write(b, bRange, to: &scratch.right)
        return scratch.left != scratch.right
    }
}
