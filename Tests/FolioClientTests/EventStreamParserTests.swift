import Testing

@testable import FolioClient

/// The watch stream's framing (docs/API.md, "Watching a list"), fed in arbitrary chunks.
@Suite struct EventStreamParserTests {
    static let stream = Array(
        (": keep-alive\n\n" + "event: changes\r\nid: T2\r\ndata: {\"a\":\r\ndata: 1}\r\n\r\n"
            + "event: changes\rid: T3\rdata:{}\r\r" + "data: x\nid\n\n").utf8)

    @Test(arguments: [1, 2, 3, 7, 1000]) func eventsComeWholeWhateverTheChunks(chunkSize: Int) {
        var parser = EventStreamParser()
        var events: [ServerSentEvent] = []
        for start in stride(from: 0, to: Self.stream.count, by: chunkSize) {
            events += parser.feed(Self.stream[start..<min(start + chunkSize, Self.stream.count)])
        }
        #expect(
            events == [
                ServerSentEvent(type: "changes", id: "T2", data: "{\"a\":\n1}"),
                ServerSentEvent(type: "changes", id: "T3", data: "{}"),
                ServerSentEvent(type: "message", id: "", data: "x"),
            ])
    }
}
