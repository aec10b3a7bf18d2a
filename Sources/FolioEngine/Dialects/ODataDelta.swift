/// Writes OData's answer to `$deltatoken=T` (docs/API.md, "OData deltas") from the changes of the view
/// between snapshot `T` and the newest: `{"@odata.context":…,"value":[…],"@odata.deltaLink":…}`. `value` holds
/// every item added to the view or changed since `T`, as the upstream wrote it (cut by `$select`), in view order;
/// then, for each item that left the view, `{"@removed":{"reason":"deleted"},"ID":id}` (`changed` instead when
/// the newest list still holds its id but the view no longer shows it), the id copied as written, in the old
/// view's order. Moves are not told: an OData delta has no order.
public enum ODataDelta {
    /// `idName` is the member that names an item in a removed entry (the route's `idField`).
    public static func body(_ changes: ViewChanges, context: String, idName: String, deltaLink: String) -> [UInt8] {
        [UInt8](exactly: DeltaBody(changes: changes, context: context, idName: idName, deltaLink: deltaLink))
    }
}

private struct DeltaBody: ByteWritable {
    let changes: ViewChanges
    let context: String
    let idName: String
    let deltaLink: String

    func write(to sink: inout some ByteSink) {
        sink.write("{\"@odata.context\":")
        JSONText.writeString(context, to: &sink)
        sink.write(",\"value\":[")
        var first = true
        let view = changes.view
        view.list.bytes.withUnsafeBufferPointer { bytes in
            for operation in changes.operations {
                switch operation {
                case .add(let at), .replace(let at):
                    if !first { sink.write(UInt8(ascii: ",")) }
                    first = false
                    changes.form.write(bytes, view.list.range(of: view.elementIndex(at: at)), to: &sink)
                case .remove, .move:
                    continue
                }
            }
        }
        let sides = changes.sides
        sides.old.list.bytes.withUnsafeBufferPointer { old in
            view.list.bytes.withUnsafeBufferPointer { new in
                // Removes come from the back of the old view; told here front to back.
                for operation in changes.operations.reversed() {
                    guard case .remove(let at) = operation else { continue }
                    let element = sides.old.elementIndex(at: at)
                    let range = sides.old.list.range(of: element)
                    guard let start = sides.oldIDs.field.valueStart(in: old, range),
                        let end = JSONScan.skipValue(old, start, range.upperBound)
                    else { continue }
                    if !first { sink.write(UInt8(ascii: ",")) }
                    first = false
                    let kept = sides.newIDs.element(matching: element, of: sides.oldIDs, new, old) != nil
                    sink.write("{\"@removed\":{\"reason\":")
                    sink.write(kept ? "\"changed\"}," : "\"deleted\"},")
                    JSONText.writeString(idName, to: &sink)
                    sink.write(UInt8(ascii: ":"))
                    sink.write(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: old[start..<end])))
                    sink.write(UInt8(ascii: "}"))
                }
            }
        }
        sink.write("],\"@odata.deltaLink\":")
        JSONText.writeString(deltaLink, to: &sink)
        sink.write(UInt8(ascii: "}"))
    }
}
