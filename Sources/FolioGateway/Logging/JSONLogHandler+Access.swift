/// The fields of one access-log line (README, "Logs"), in the order `JSONLogHandler` writes
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
        var line = "{\"time\":\""
        line.reserveCapacity(320)
        Self.appendTimestamp(to: &line)
        line += "\",\"level\":\"info\",\"message\":\"request\",\"label\":"
        Self.appendQuoted(label, to: &line)
        if let cacheStatus = access.cacheStatus {
            line += ",\"cache_status\":"
            Self.appendQuoted(cacheStatus, to: &line)
        }
        line += ",\"duration_ms\":"
        // What `append` writes for a finite Double, without boxing it and casting it back.
        if access.durationMilliseconds.isFinite {
            line += access.durationMilliseconds.description
        } else {
            Self.append(.stringConvertible(access.durationMilliseconds), to: &line)
        }
        line += ",\"method\":"
        Self.appendQuoted(access.method, to: &line)
        line += ",\"path\":"
        Self.appendQuoted(access.path, to: &line)
        if let peer = access.peer {
            line += ",\"peer\":"
            Self.appendQuoted(peer, to: &line)
        }
        line += ",\"request_id\":"
        Self.appendQuoted(access.requestID, to: &line)
        line += ",\"route\":"
        Self.appendQuoted(access.route, to: &line)
        line += ",\"status\":"
        line += String(access.status)
        line += "}\n"
        output.write(line)
    }
}
