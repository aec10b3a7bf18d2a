import Foundation
import Testing

/// A watch stream read over a raw connection (docs/API.md, "Watching a list"): the request is
/// sent as a browser's `EventSource` sends it, the events are read from what came so far.
struct EventStreamClient: Sendable {
    struct Event: Sendable {
        var id: String
        var data: String
        var json: [String: Any] {
            get throws { try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any]) }
        }
        var from: String? { (try? json["changes"] as? [String: Any])?["from"] as? String }
        var patch: [[String: Any]] { ((try? json["patch"]) as? [[String: Any]]) ?? [] }
    }

    let connection: RawConnection

    /// Opens `GET target` with `Accept: text/event-stream` (and `Last-Event-ID` when given).
    static func open(port: Int, _ target: String, lastEventID: String? = nil) async throws -> EventStreamClient {
        let connection = try await RawConnection.open(port: port)
        var head = "GET \(target) HTTP/1.1\r\nHost: folio\r\nAccept: text/event-stream\r\n"
        if let lastEventID { head += "Last-Event-ID: \(lastEventID)\r\n" }
        try await connection.send(head + "\r\n")
        return EventStreamClient(connection: connection)
    }

    /// The answer's head, once it came.
    var head: String? {
        let text = connection.received
        return text.range(of: "\r\n\r\n").map { String(text[..<$0.lowerBound]) }
    }

    /// Every whole event received so far, in order.
    var events: [Event] {
        let text = connection.received
        var events: [Event] = []
        for part in text.components(separatedBy: "event: changes\n").dropFirst() {
            guard let end = part.range(of: "\n\n") else { continue }
            var id = ""
            var data: [String] = []
            for line in part[..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("id: ") { id = String(line.dropFirst(4)) }
                if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
            }
            events.append(Event(id: id, data: data.joined(separator: "\n")))
        }
        return events
    }

    /// Waits until `count` events came (at most `limit`, a safety net); the events.
    func waitForEvents(_ count: Int, limit: Duration = .seconds(30)) async throws -> [Event] {
        try await waitUntil("\(count) events", limit: limit) { self.events.count >= count || connection.isClosed }
        let received = self.events
        guard received.count >= count else {
            throw TestFailure("\(received.count) events, expected \(count): \(connection.received)")
        }
        return received
    }

    func close() async { await connection.close() }
}
