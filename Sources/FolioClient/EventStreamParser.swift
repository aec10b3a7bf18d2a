import Foundation

/// One Server-Sent Event (the watch stream of docs/API.md, "Watching a list").
struct ServerSentEvent: Sendable, Equatable {
    var type = "message"
    var id: String?
    var data = ""
}

/// Cuts a `text/event-stream` body, fed in chunks as they arrive, into events (the HTML
/// Standard's parsing rules: lines end in CR, LF or CRLF; `data:` lines join with LF; a blank
/// line dispatches; a line starting with `:` is a comment, such as `: keep-alive`).
struct EventStreamParser: Sendable {
    private var line: [UInt8] = []
    private var event = ServerSentEvent()
    private var hasData = false
    private var afterCR = false

    /// The events completed by `chunk`.
    mutating func feed(_ chunk: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in chunk {
            if afterCR {
                afterCR = false
                if byte == 0x0A { continue }  // the LF of a CRLF
            }
            if byte == 0x0A || byte == 0x0D {
                afterCR = byte == 0x0D
                if let event = endLine() { events.append(event) }
            } else {
                line.append(byte)
            }
        }
        return events
    }

    private mutating func endLine() -> ServerSentEvent? {
        defer { line = [] }
        if line.isEmpty {
            defer {
                event = ServerSentEvent()
                hasData = false
            }
            return hasData ? event : nil
        }
        if line.first == UInt8(ascii: ":") { return nil }
        let text = String(decoding: line, as: UTF8.self)
        let field: Substring
        var value: Substring
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
        } else {
            field = text[...]
            value = ""
        }
        switch field {
        case "event": event.type = String(value)
        case "id": event.id = String(value)
        case "data":
            event.data += hasData ? "\n" + value : String(value)
            hasData = true
        default: break
        }
        return nil
    }
}
