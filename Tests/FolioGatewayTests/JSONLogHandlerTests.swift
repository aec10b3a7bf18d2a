import Foundation
import Logging
import Testing

@testable import FolioGateway

/// The log line format, read back with Foundation's JSON parser as the reference.
@Suite struct JSONLogHandlerTests {
    static let texts = [
        "plain", "", "quote \" inside", "back\\slash", "new\nline", "tab\tand\rreturn", "\u{01}\u{1F}\u{7F}",
        "Grüße ✓ 😀", "ends with \\", "\"",
    ]

    @Test func everyStringReadsBackUnchanged() throws {
        let log = CapturedLog()
        var handler = JSONLogHandler(label: "t\"l", output: log.output)
        handler[metadataKey: "fixed"] = .string("from the handler")
        handler[metadataKey: "both"] = .string("overridden")
        var metadata: Logger.Metadata = ["both": .string("from the event")]
        for (index, text) in Self.texts.enumerated() { metadata["k\(index)"] = .string(text) }
        handler.log(
            event: LogEvent(
                level: .info, message: "m \"1\"", metadata: metadata, source: "s", file: "f", function: "f", line: 1))

        let object = try #require(log.objects.first)
        #expect(object["message"] as? String == "m \"1\"")
        #expect(object["label"] as? String == "t\"l")
        #expect(object["fixed"] as? String == "from the handler")
        #expect(object["both"] as? String == "from the event")
        for (index, text) in Self.texts.enumerated() {
            #expect(object["k\(index)"] as? String == text, "\(text.debugDescription)")
        }
    }

    @Test func numbersAndBooleansStayJSONValues() throws {
        let log = CapturedLog()
        let handler = JSONLogHandler(label: "t", output: log.output)
        let metadata: Logger.Metadata = [
            "int": .stringConvertible(200), "negative": .stringConvertible(-7), "u8": .stringConvertible(UInt8(9)),
            "double": .stringConvertible(1.25), "flag": .stringConvertible(true), "nan": .stringConvertible(Double.nan),
        ]
        handler.log(
            event: LogEvent(
                level: .info, message: "m", metadata: metadata, source: "s", file: "f", function: "f", line: 1))
        let line = try #require(log.all.first)
        let object = try #require(log.objects.first)
        #expect(object["int"] as? Int == 200)
        #expect(object["negative"] as? Int == -7)
        #expect(object["u8"] as? Int == 9)
        #expect(object["double"] as? Double == 1.25)
        #expect(line.contains(#""flag":true"#))
        #expect(object["nan"] as? String == "nan")
        // Keys in order after the fixed four.
        let keys = ["double", "flag", "int", "nan", "negative", "u8"]
        let positions = keys.map { line.range(of: "\"\($0)\":")!.lowerBound }
        #expect(positions == positions.sorted())
    }
}
