/// Writes a `since` answer (docs/API.md, "Changes between snapshots"):
/// `{"changes":{"from":…,"to":…,"count":N,"previousCount":M},"patch":[…]}`, each `value` the
/// item's bytes as the upstream wrote them (or as the request's `ItemForm` cuts them), never
/// re-encoded; paths are JSON Pointers into the array (`/12`). Counted, then written into one
/// buffer of that size, as pages are (`PageWriter`).
public enum PatchWriter {
    public static func body(_ changes: ViewChanges, from: String, to: String) -> [UInt8] {
        [UInt8](exactly: ChangesBody(changes: changes, from: from, to: to))
    }
}

private struct ChangesBody: ByteWritable {
    let changes: ViewChanges
    let from: String
    let to: String

    func write(to sink: inout some ByteSink) {
        sink.write("{\"changes\":{\"from\":")
        JSONText.writeString(from, to: &sink)
        sink.write(",\"to\":")
        JSONText.writeString(to, to: &sink)
        sink.write(",\"count\":")
        sink.writeDecimal(changes.count)
        sink.write(",\"previousCount\":")
        sink.writeDecimal(changes.previousCount)
        sink.write("},\"patch\":[")
        let view = changes.view
        view.list.bytes.withUnsafeBufferPointer { bytes in
            for (index, operation) in changes.operations.enumerated() {
                if index > 0 { sink.write(UInt8(ascii: ",")) }
                switch operation {
                case .remove(let at):
                    sink.write("{\"op\":\"remove\",\"path\":\"/")
                    sink.writeDecimal(at)
                    sink.write("\"}")
                case .move(let from, let to):
                    sink.write("{\"op\":\"move\",\"from\":\"/")
                    sink.writeDecimal(from)
                    sink.write("\",\"path\":\"/")
                    sink.writeDecimal(to)
                    sink.write("\"}")
                case .add(let at):
                    sink.write("{\"op\":\"add\",\"path\":\"/")
                    writeValue(at, bytes, to: &sink)
                case .replace(let at):
                    sink.write("{\"op\":\"replace\",\"path\":\"/")
                    writeValue(at, bytes, to: &sink)
                }
            }
        }
        sink.write("]}")
    }

    /// `N","value":ITEM}` for the new view's item at `position`.
    private func writeValue(_ position: Int, _ bytes: UnsafeBufferPointer<UInt8>, to sink: inout some ByteSink) {
        sink.writeDecimal(position)
        sink.write("\",\"value\":")
        let view = changes.view
        changes.form.write(bytes, view.list.range(of: view.elementIndex(at: position)), to: &sink)
        sink.write(UInt8(ascii: "}"))
    }
}
