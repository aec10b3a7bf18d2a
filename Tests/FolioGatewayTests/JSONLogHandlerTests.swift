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

/// The access log's own writer against the generic path it stands in for.
@Suite struct AccessLineTests {
    @Test(arguments: [
        AccessLine(
            cacheStatus: "folio; hit; ttl=3599", durationMilliseconds: 0.123, method: "GET", path: "/objects",
            peer: "127.0.0.1", requestID: "req-1", route: "objects", status: 200),
        AccessLine(
            cacheStatus: nil, durationMilliseconds: 12, method: "DELETE", path: "/a \"b\"\\c\n",
            peer: nil, requestID: "", route: "none", status: 404),
        AccessLine(
            cacheStatus: "folio; fwd=miss; stored", durationMilliseconds: 1e-3, method: "HEAD", path: "/grüße/😀",
            peer: "::1", requestID: "\u{01}x", route: "r\"", status: 503),
    ])
    func sameLineAsTheGenericPath(_ access: AccessLine) throws {
        let fast = CapturedLog()
        let generic = CapturedLog()
        JSONLogHandler(label: "folio", output: fast.output).writeAccess(access)
        JSONLogHandler(label: "folio", output: generic.output).log(
            event: LogEvent(
                level: .info, message: "request", metadata: access.metadata, source: "s", file: "f", function: "f",
                line: 1))
        // Everything after the timestamp, byte for byte.
        let fastLine = try #require(fast.all.first)
        let genericLine = try #require(generic.all.first)
        let timeEnd = fastLine.range(of: "\",\"level\"")!.lowerBound
        #expect(fastLine[timeEnd...] == genericLine[genericLine.range(of: "\",\"level\"")!.lowerBound...])
        #expect(fast.all.count == 1)
    }

    /// Hand-written digits where they apply, `description` (or the generic path's text)
    /// elsewhere: the same text as the generic path either way.
    @Test(arguments: [
        0, -0.0, 1, 12, 0.05, 0.005, 0.02, 0.123, 1.5, 1234.5, 999_999.999, 0.1 + 0.2, 1e-4, 1e-7, 123_456_789_012.345,
        1e13, 1e20, -3.5, .nan, .infinity, -.infinity,
    ])
    func durationsAreWrittenAsTheGenericPathWritesThem(_ milliseconds: Double) {
        var fast = ""
        JSONLogHandler.appendMilliseconds(milliseconds, to: &fast)
        var generic = ""
        JSONLogHandler.append(.stringConvertible(milliseconds), to: &generic)
        #expect(fast == generic)
    }
}

/// The log's hand-written timestamps against Foundation's ISO 8601 formatter.
@Suite struct LogTimestampTests {
    @Test(arguments: [0, 951_782_400, 1_767_225_599, 1_795_651_200, 4_102_444_799])
    func secondsAreFormattedAsFoundationDoes(_ seconds: Int) {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        let expected = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        #expect(JSONLogHandler.formatSecond(seconds) + "000Z" == expected.dropLast() + ".000Z")
    }

    @Test func aTimestampIsNow() throws {
        var line = ""
        let before = Date()
        JSONLogHandler.appendTimestamp(to: &line)
        let after = Date()
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let stamp = try #require(formatter.date(from: line), "\(line)")
        #expect(line.count == 24)
        #expect(stamp.timeIntervalSince(before) >= -0.001 && after.timeIntervalSince(stamp) >= 0)
    }
}
