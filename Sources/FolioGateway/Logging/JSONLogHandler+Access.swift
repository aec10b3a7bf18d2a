/// The fields of one access-log line (docs/OPERATIONS.md, "Logs"), in the order `JSONLogHandler` writes
/// metadata: by key.
struct AccessLine {
    var cacheStatus: String?
    var durationMilliseconds: Double
    var method: String
    var path: Substring
    var peer: String?
    var requestID: String
    var route: String
    var status: Int
}

extension JSONLogHandler {
    /// Writes `access` as the line `log(event:)` would write for an info event "request" with
    /// these fields as metadata, without building a `Logger.Metadata` (a dictionary of
    /// existentials, sorted for every line): the access log writes a line per request.
    ///
    /// Only for a handler without metadata of its own (that would be merged into the line).
    func writeAccess(_ access: AccessLine) {
        var line = LogLine(capacity: 320)
        line.append("{\"time\":\"")
        Self.appendTimestamp(to: &line)
        line.append("\",\"level\":\"info\",\"message\":\"request\",\"label\":")
        line.appendQuoted(label)
        if let cacheStatus = access.cacheStatus {
            line.append(",\"cache_status\":")
            line.appendQuoted(cacheStatus)
        }
        line.append(",\"duration_ms\":")
        var milliseconds = ""
        Self.appendMilliseconds(access.durationMilliseconds, to: &milliseconds)
        line.append(text: milliseconds)
        line.append(",\"method\":")
        line.appendQuoted(access.method)
        line.append(",\"path\":")
        line.appendQuoted(access.path)
        if let peer = access.peer {
            line.append(",\"peer\":")
            line.appendQuoted(peer)
        }
        line.append(",\"request_id\":")
        line.appendQuoted(access.requestID)
        line.append(",\"route\":")
        line.appendQuoted(access.route)
        line.append(",\"status\":")
        line.append(text: String(access.status))
        line.append("}\n")
        line.bytes.withUnsafeBytes(output.writeBytes)
    }

    /// What `append` writes for `value`, a duration rounded to the microsecond: digits written
    /// by hand for whole microseconds (what `Double.description` prints for them: no exponent,
    /// no trailing zeros, at least one fraction digit), `description` for anything else.
    static func appendMilliseconds(_ value: Double, to line: inout String) {
        let micros = (value * 1000).rounded()
        guard value.sign == .plus, micros < 1e15, micros / 1000 == value else {
            if value.isFinite {
                line += value.description
            } else {
                append(.stringConvertible(value), to: &line)
            }
            return
        }
        let whole = Int(micros)
        line += String(whole / 1000)
        var fraction = whole % 1000
        var width = 3
        while width > 1, fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        line += "."
        if width == 3 && fraction < 100 { line += fraction < 10 ? "00" : "0" }
        if width == 2 && fraction < 10 { line += "0" }
        line += String(fraction)
    }
}
